# syntax=docker/dockerfile:1
# One-shot setup of docker compose's dev chain (service dev-chain-setup): on the anvil container it deploys the
# project's contracts exactly as the local stack and the tests do (the subscription contract at nonce 0, then USDC …
# AVAX at nonces 1-7, so at the same addresses) and funds the customer account, then exits. On a chain that has them
# it changes nothing. The code is the launcher's: dev.cryptopay.deploy.DevChainSetup with test-support's DevChain.
#
# The launcher jar is built by Maven BEFORE `docker build`; only the contracts are compiled here, from dev-chain/
# with the locked solc npm package (dev-chain/compile.js, as for the tests):
#   ./mvnw -B -DskipTests package
#   docker build -f deploy/docker/dev-chain-setup.Dockerfile -t cryptopay/dev-chain-setup:local .
# The build context is the repository root; dev-chain-setup.Dockerfile.dockerignore sends only what is used.

ARG NODE_IMAGE=node:20.20.2-bookworm-slim
ARG BASE_IMAGE=eclipse-temurin:17.0.19_10-jre-noble

# Stage 1: build/TestToken.json and build/CryptopaySubscriptions.json. --omit=optional leaves out anvil's platform binaries, which compiling does not need.
FROM ${NODE_IMAGE} AS token
WORKDIR /dev-chain
COPY dev-chain/package.json dev-chain/package-lock.json dev-chain/compile.js ./
COPY dev-chain/contracts/ contracts/
RUN npm ci --ignore-scripts --omit=optional && node compile.js

# Stage 2: the launcher jar and the token on the JRE the services use.
FROM ${BASE_IMAGE}
ARG VERSION=0.1.0-SNAPSHOT
RUN groupadd --system --gid 10001 cryptopay \
 && useradd --system --uid 10001 --gid cryptopay --no-create-home --shell /usr/sbin/nologin cryptopay
WORKDIR /app
COPY deploy/target/deploy-${VERSION}-exec.jar app.jar
COPY --from=token /dev-chain/build/TestToken.json TestToken.json
# DevChain reads the subscription contract's artifact beside the token's.
COPY --from=token /dev-chain/build/CryptopaySubscriptions.json CryptopaySubscriptions.json
USER 10001:10001
ENV DEV_CHAIN_RPC_URL=http://anvil:8545 \
    DEV_CHAIN_TOKEN_ARTIFACT=/app/TestToken.json
ENTRYPOINT ["java", "-cp", "app.jar", "-Dloader.main=dev.cryptopay.deploy.DevChainSetup", "org.springframework.boot.loader.launch.PropertiesLauncher"]
