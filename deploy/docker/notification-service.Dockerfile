# syntax=docker/dockerfile:1
# Image of notification-service.
#
# The jar is built by Maven BEFORE `docker build`; nothing is compiled inside the image build:
#   ./mvnw -B -DskipTests -pl notification-service -am package
#   docker build -f deploy/docker/notification-service.Dockerfile -t cryptopay/notification-service:local .
# The build context is the repository root; notification-service.Dockerfile.dockerignore sends only the jar.
# docker-compose.yml builds it the same way.

ARG BASE_IMAGE=eclipse-temurin:17.0.19_10-jre-noble

# Stage 1: split the Spring Boot jar into its layers (dependencies, loader, snapshot dependencies, application),
# so that a code change rebuilds and ships only the small application layer.
FROM ${BASE_IMAGE} AS extract
ARG VERSION=0.1.0-SNAPSHOT
WORKDIR /build
COPY notification-service/target/notification-service-${VERSION}.jar app.jar
RUN java -Djarmode=tools -jar app.jar extract --layers --launcher --destination extracted

# Stage 2: the runtime image, one COPY per layer, least often changed first.
FROM ${BASE_IMAGE}
RUN groupadd --system --gid 10001 cryptopay \
 && useradd --system --uid 10001 --gid cryptopay --no-create-home --shell /usr/sbin/nologin cryptopay
WORKDIR /app
COPY --from=extract /build/extracted/dependencies/ ./
COPY --from=extract /build/extracted/spring-boot-loader/ ./
COPY --from=extract /build/extracted/snapshot-dependencies/ ./
COPY --from=extract /build/extracted/application/ ./
# Numeric user, so Kubernetes' runAsNonRoot can verify it.
USER 10001:10001
# 8085 HTTP API (the merchant routes to come) and actuator (health probes, /actuator/prometheus).
EXPOSE 8085
# No HEALTHCHECK here: docker-compose.yml and the Kubernetes probes define their own.
# Extra JVM flags: set JAVA_TOOL_OPTIONS (read by the JVM itself).
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "org.springframework.boot.loader.launch.JarLauncher"]
