-- Reference data: the EVM networks plans can live on, the currencies, and the ERC-20 tokens a plan can bill in.
-- Subscriptions pull ERC-20 tokens through an allowance, so native coins (ETH, BNB, AVAX, POL) appear here only as
-- networks' symbols, never as plan tokens. Ids are fixed (UUID v5 of the chain id / token) so clients may keep them;
-- currency ids are the same as payment-links-service's.
--
-- Mainnet token addresses were read from public token lists and issuers' pages (Circle, Chainlink, the Superchain
-- token list, Uniswap's default list, the Aave address book, PancakeSwap, Linea, Trader Joe) and are in EIP-55 form.
-- Choices: USDC is Circle's own USDC wherever Circle issues it (Binance-Peg USDC on BNB Smart Chain); USDC and USDT
-- on BNB Smart Chain have 18 decimals; USDT on OP Mainnet is the standard-bridge USDT; LINK on Polygon and BNB Smart
-- Chain is the bridged ERC-20 that exchanges use; WBTC is not offered on Base (not an established token there).
--
-- Test networks: Sepolia with Circle's test USDC and Uniswap's WETH9, and the local dev chain (chain id 31337),
-- whose tokens sit where the dev chain's first account (the well-known development address
-- 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266) deploys at nonces 1-3; its nonce 0 is the subscription contract.

CREATE TABLE network (
    id         UUID PRIMARY KEY,
    name       TEXT        NOT NULL UNIQUE,
    chain_id   BIGINT      NOT NULL UNIQUE CHECK (chain_id > 0),
    symbol     TEXT        NOT NULL,
    is_testnet BOOLEAN     NOT NULL,
    is_active  BOOLEAN     NOT NULL DEFAULT TRUE,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE currency (
    id   UUID PRIMARY KEY,
    code TEXT NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{3,10}$'),
    name TEXT NOT NULL
);

CREATE TABLE token (
    id               UUID PRIMARY KEY,
    network_id       UUID NOT NULL REFERENCES network (id),
    currency_code    TEXT NOT NULL REFERENCES currency (code),
    contract_address TEXT NOT NULL CHECK (contract_address ~ '^0x[0-9a-fA-F]{40}$'),
    decimals         INT  NOT NULL CHECK (decimals BETWEEN 0 AND 36),
    UNIQUE (network_id, currency_code)
);

CREATE UNIQUE INDEX token_network_contract ON token (network_id, lower(contract_address));


INSERT INTO currency (id, code, name) VALUES
    ('ada51fc3-ad1b-565d-9f32-cfbd44c17e6a', 'AVAX', 'Avalanche'),
    ('3492d1a6-57ce-5f48-81f3-d0360e139492', 'BNB', 'BNB'),
    ('e36b4fed-a45c-546a-919b-02a71cf1091e', 'ETH', 'Ethereum'),
    ('5bca4a4f-27f4-50a0-bd30-1c880c27e127', 'LINK', 'ChainLink'),
    ('8869f514-71db-5d4f-9dda-b9126cb24da7', 'USDC', 'USD Coin'),
    ('82c48f90-97cf-5382-bc0a-024c1ad1e888', 'USDT', 'Tether USD'),
    ('d830fbe8-807b-51e4-8c0c-464de2f353c5', 'WBTC', 'Wrapped BTC'),
    ('41fd9b98-2cfb-5842-a4b4-9851809551cd', 'WETH', 'Wrapped Ethereum');

INSERT INTO network (id, name, chain_id, symbol, is_testnet, is_active, created_at, updated_at) VALUES
    ('e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'Ethereum', 1, 'ETH', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('f6169a80-165b-5298-98ea-422eb6fab1ee', 'OP Mainnet', 10, 'ETH', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('25b64345-abff-5026-9041-9b840bc1758b', 'BNB Smart Chain', 56, 'BNB', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('06eb2fbc-7be6-5426-8216-dc8b90125cbb', 'Polygon PoS', 137, 'POL', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('a9e8d4f8-09ab-53a2-82ac-52cb8c83243c', 'opBNB', 204, 'BNB', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('7023086a-a54f-5261-b80a-5314dc4a4470', 'Base', 8453, 'ETH', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('ed3733a9-ef5e-5e4c-b862-c48047941ed1', 'Arbitrum One', 42161, 'ETH', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('c0fc655f-1f72-56cc-b178-8424814d8e2c', 'Avalanche C-Chain', 43114, 'AVAX', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('31ff8c73-3bd9-5d53-aa96-bcc217f0807b', 'Linea', 59144, 'ETH', FALSE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('058ff815-37dc-5eff-b476-29c32a4cadc6', 'Sepolia', 11155111, 'ETH', TRUE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'),
    ('2101c9d0-191f-5286-9415-6f6fb2424434', 'Local dev chain', 31337, 'ETH', TRUE, TRUE, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z');

INSERT INTO token (id, network_id, currency_code, contract_address, decimals) VALUES
    ('295a3e71-3745-5027-91f3-1c100de9ae23', 'e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'BNB', '0xB8c77482e45F1F44dE1745F52C74426C631bDD52', 18), -- Ethereum
    ('8db4df3d-ec77-5890-ba19-94dd7632654e', 'e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'LINK', '0x514910771AF9Ca656af840dff83E8264EcF986CA', 18), -- Ethereum
    ('5193b762-a90b-56a5-885b-7715c06f27b1', 'e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6), -- Ethereum
    ('0f749ce7-45ed-536f-9676-95ef7a22d7c0', 'e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6), -- Ethereum
    ('c9da570f-c9d6-5982-8075-7990a12fe114', 'e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'WBTC', '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 8), -- Ethereum
    ('d47ba9cd-b1ca-5c1f-aadf-de0c38ca79f3', 'e86273c2-08b5-5990-8c8f-75dce15c6fa3', 'WETH', '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 18), -- Ethereum
    ('74940f1e-ac72-5b1c-8b52-c0ba394a26a5', 'f6169a80-165b-5298-98ea-422eb6fab1ee', 'LINK', '0x350a791Bfc2C21F9Ed5d10980Dad2e2638ffa7f6', 18), -- OP Mainnet
    ('d0093263-b9e4-5c2b-b06c-77eb1cd40102', 'f6169a80-165b-5298-98ea-422eb6fab1ee', 'USDC', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 6), -- OP Mainnet
    ('b681cfc2-eed2-5d3c-b87f-2140733e3c24', 'f6169a80-165b-5298-98ea-422eb6fab1ee', 'USDT', '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', 6), -- OP Mainnet
    ('41fde29a-0124-537a-8f39-2029c06110f4', 'f6169a80-165b-5298-98ea-422eb6fab1ee', 'WBTC', '0x68f180fcCe6836688e9084f035309E29Bf0A2095', 8), -- OP Mainnet
    ('d9c0a89e-14d5-5aae-8070-b47c61182a29', 'f6169a80-165b-5298-98ea-422eb6fab1ee', 'WETH', '0x4200000000000000000000000000000000000006', 18), -- OP Mainnet
    ('61b2e6f0-2d6d-52a4-a902-1464c7474a31', '25b64345-abff-5026-9041-9b840bc1758b', 'AVAX', '0x1CE0c2827e2eF14D5C4f29a091d735A204794041', 18), -- BNB Smart Chain
    ('120c1ebc-bb42-5f54-b706-4ffc18aa5840', '25b64345-abff-5026-9041-9b840bc1758b', 'LINK', '0xF8A0BF9cF54Bb92F17374d9e9A321E6a111a51bD', 18), -- BNB Smart Chain
    ('f0b512e7-984d-501e-9609-0fe62dfd6b05', '25b64345-abff-5026-9041-9b840bc1758b', 'USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18), -- BNB Smart Chain
    ('04bb95f8-a4c1-5fda-a812-94baa177b538', '25b64345-abff-5026-9041-9b840bc1758b', 'USDT', '0x55d398326f99059fF775485246999027B3197955', 18), -- BNB Smart Chain
    ('6df9f22c-20d1-55ff-902f-5a23ccc7fd84', '06eb2fbc-7be6-5426-8216-dc8b90125cbb', 'LINK', '0x53E0bca35eC356BD5ddDFebbD1Fc0fD03FaBad39', 18), -- Polygon PoS
    ('eb11ca33-aa8e-5fc6-bef0-c20e45095c84', '06eb2fbc-7be6-5426-8216-dc8b90125cbb', 'USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 6), -- Polygon PoS
    ('6f5d88c5-fce1-596f-9dfd-f6b0951bfeb9', '06eb2fbc-7be6-5426-8216-dc8b90125cbb', 'USDT', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 6), -- Polygon PoS
    ('a2e09adc-52d5-5613-adb8-823a83c96255', '06eb2fbc-7be6-5426-8216-dc8b90125cbb', 'WBTC', '0x1BFD67037B42Cf73acF2047067bd4F2C47D9BfD6', 8), -- Polygon PoS
    ('5d1a0a1e-2605-5af3-a22b-98b692bc6669', '06eb2fbc-7be6-5426-8216-dc8b90125cbb', 'WETH', '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619', 18), -- Polygon PoS
    ('3a22d46c-9a4a-55fe-a214-5a1f937b3019', '7023086a-a54f-5261-b80a-5314dc4a4470', 'LINK', '0x88Fb150BDc53A65fe94Dea0c9BA0a6dAf8C6e196', 18), -- Base
    ('f195cb50-3a12-57cb-8d61-075aff5e1f36', '7023086a-a54f-5261-b80a-5314dc4a4470', 'USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 6), -- Base
    ('706aef89-620c-51ca-a363-e7f9aef29754', '7023086a-a54f-5261-b80a-5314dc4a4470', 'USDT', '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', 6), -- Base
    ('d92a49c4-0d08-5885-b078-6f9cec9410a4', '7023086a-a54f-5261-b80a-5314dc4a4470', 'WETH', '0x4200000000000000000000000000000000000006', 18), -- Base
    ('d03b7c8d-28ec-5d33-8240-8c138ce7849f', 'ed3733a9-ef5e-5e4c-b862-c48047941ed1', 'LINK', '0xf97f4df75117a78c1A5a0DBb814Af92458539FB4', 18), -- Arbitrum One
    ('66a103ad-9320-5e48-9637-6a6ea3541fae', 'ed3733a9-ef5e-5e4c-b862-c48047941ed1', 'USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 6), -- Arbitrum One
    ('7c6210ba-b944-59ce-9153-ed9866dc11b2', 'ed3733a9-ef5e-5e4c-b862-c48047941ed1', 'USDT', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 6), -- Arbitrum One
    ('72286d9e-9757-5c5c-927f-3ed76364d468', 'ed3733a9-ef5e-5e4c-b862-c48047941ed1', 'WBTC', '0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f', 8), -- Arbitrum One
    ('8952f9e4-30fe-58a8-8707-8b3c3d44edb3', 'ed3733a9-ef5e-5e4c-b862-c48047941ed1', 'WETH', '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 18), -- Arbitrum One
    ('e292f575-4570-591a-a67a-d926434f58f9', 'c0fc655f-1f72-56cc-b178-8424814d8e2c', 'USDC', '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', 6), -- Avalanche C-Chain
    ('d3a403f5-d5f3-5e6f-9a02-d09faa3c620d', 'c0fc655f-1f72-56cc-b178-8424814d8e2c', 'USDT', '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', 6), -- Avalanche C-Chain
    ('c0f0ab9f-65dc-539c-bcf2-70b416d06380', '31ff8c73-3bd9-5d53-aa96-bcc217f0807b', 'WETH', '0xe5D7C2a44FfDDf6b295A15c148167daaAf5Cf34f', 18), -- Linea
    ('332bd400-55a9-583a-83fb-1b69e503897e', '058ff815-37dc-5eff-b476-29c32a4cadc6', 'USDC', '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', 6), -- Sepolia
    ('611633f4-d244-595f-836f-fb5e85e2bb85', '058ff815-37dc-5eff-b476-29c32a4cadc6', 'WETH', '0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14', 18), -- Sepolia
    ('ceda923e-9b76-50f7-8b8d-25f1bfb0f0c5', '2101c9d0-191f-5286-9415-6f6fb2424434', 'USDC', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', 6), -- Local dev chain
    ('ea54a43e-e5ee-58e7-94a0-4a39bb3c9ae5', '2101c9d0-191f-5286-9415-6f6fb2424434', 'USDT', '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0', 6), -- Local dev chain
    ('11755a47-3490-5563-b20a-2747ebee6fcc', '2101c9d0-191f-5286-9415-6f6fb2424434', 'WETH', '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9', 18); -- Local dev chain
