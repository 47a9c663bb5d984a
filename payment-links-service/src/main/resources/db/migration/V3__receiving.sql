-- Receiving payments on chain: what paying a currency on a network means (token contract and decimals), the
-- merchants' BIP-32 receiving keys, and the deposit address and exact amount in base units of each new link.

-- NULL token_contract with decimals set: the network's native coin. NULL decimals: not payable there yet.
ALTER TABLE currency_network
    ADD COLUMN token_contract TEXT,
    ADD COLUMN decimals       INT CHECK (decimals BETWEEN 0 AND 36),
    ADD CONSTRAINT currency_network_token_has_decimals CHECK (token_contract IS NULL OR decimals IS NOT NULL);

UPDATE currency_network SET decimals = 18
WHERE (currency_code, network) IN (
    ('AVAX', 'Avalanche C-Chain'), ('BNB', 'BNB Smart Chain'), ('BNB', 'opBNB'), ('ETH', 'Ethereum'),
    ('ETH', 'Arbitrum One'), ('ETH', 'OP Mainnet'), ('ETH', 'Base'), ('ETH', 'Linea'));

UPDATE currency_network AS n SET token_contract = t.contract, decimals = t.decimals
FROM (VALUES
    ('AVAX', 'BNB Smart Chain', '0x1CE0c2827e2eF14D5C4f29a091d735A204794041', 18),
    ('BNB', 'Ethereum', '0xB8c77482e45F1F44dE1745F52C74426C631bDD52', 18),
    ('LINK', 'Ethereum', '0x514910771AF9Ca656af840dff83E8264EcF986CA', 18),
    ('LINK', 'Arbitrum One', '0xf97f4df75117a78c1A5a0DBb814Af92458539FB4', 18),
    ('LINK', 'OP Mainnet', '0x350a791Bfc2C21F9Ed5d10980Dad2e2638ffa7f6', 18),
    ('LINK', 'Base', '0x88Fb150BDc53A65fe94Dea0c9BA0a6dAf8C6e196', 18),
    ('LINK', 'Polygon PoS', '0x53E0bca35eC356BD5ddDFebbD1Fc0fD03FaBad39', 18),
    ('LINK', 'BNB Smart Chain', '0xF8A0BF9cF54Bb92F17374d9e9A321E6a111a51bD', 18),
    ('USDC', 'Ethereum', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6),
    ('USDC', 'Arbitrum One', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 6),
    ('USDC', 'OP Mainnet', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 6),
    ('USDC', 'Base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 6),
    ('USDC', 'Polygon PoS', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 6),
    ('USDC', 'Avalanche C-Chain', '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', 6),
    ('USDC', 'BNB Smart Chain', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18),
    ('USDT', 'Ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6),
    ('USDT', 'Arbitrum One', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 6),
    ('USDT', 'OP Mainnet', '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', 6),
    ('USDT', 'Base', '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', 6),
    ('USDT', 'Polygon PoS', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 6),
    ('USDT', 'Avalanche C-Chain', '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', 6),
    ('USDT', 'BNB Smart Chain', '0x55d398326f99059fF775485246999027B3197955', 18),
    ('WBTC', 'Ethereum', '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 8),
    ('WBTC', 'Arbitrum One', '0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f', 8),
    ('WBTC', 'OP Mainnet', '0x68f180fcCe6836688e9084f035309E29Bf0A2095', 8),
    ('WBTC', 'Polygon PoS', '0x1BFD67037B42Cf73acF2047067bd4F2C47D9BfD6', 8),
    ('WETH', 'Ethereum', '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 18),
    ('WETH', 'Arbitrum One', '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 18),
    ('WETH', 'OP Mainnet', '0x4200000000000000000000000000000000000006', 18),
    ('WETH', 'Base', '0x4200000000000000000000000000000000000006', 18),
    ('WETH', 'Polygon PoS', '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619', 18),
    ('WETH', 'Linea', '0xe5D7C2a44FfDDf6b295A15c148167daaAf5Cf34f', 18)
) AS t(currency_code, network, contract, decimals)
WHERE n.currency_code = t.currency_code AND n.network = t.network;

-- A merchant's extended public key per mode. Replacing it keeps the old row (links derived from it stay
-- explainable); registering an old key again makes it current and continues its index.
CREATE TABLE receiving_key (
    id                  UUID PRIMARY KEY,
    merchant_id         UUID        NOT NULL,
    mode                TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
    extended_public_key TEXT        NOT NULL,
    -- Chain code and public key in hex: the same key written as xpub or tpub is the same material.
    key_material        TEXT        NOT NULL,
    -- The next non-hardened child index to hand out; 2^31 means the key is used up.
    next_index          BIGINT      NOT NULL DEFAULT 0 CHECK (next_index BETWEEN 0 AND 2147483648),
    is_current          BOOLEAN     NOT NULL,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    -- One key belongs to one merchant and mode, so deposit addresses never collide between accounts.
    CONSTRAINT receiving_key_material_unique UNIQUE (key_material)
);

CREATE UNIQUE INDEX receiving_key_current ON receiving_key (merchant_id, mode) WHERE is_current;

-- Where and how much a link is paid. NULL chain_id: created before on-chain receiving existed.
-- NULL deposit_address: the merchant had no receiving key for the mode when the link was created.
ALTER TABLE payment_link
    ADD COLUMN chain_id          BIGINT,
    ADD COLUMN token_contract    TEXT,
    ADD COLUMN decimals          INT,
    ADD COLUMN amount_base_units NUMERIC(78, 0) CHECK (amount_base_units > 0),
    ADD COLUMN receiving_key_id  UUID REFERENCES receiving_key (id),
    ADD COLUMN derivation_index  INT CHECK (derivation_index >= 0),
    ADD COLUMN deposit_address   TEXT,
    ADD CONSTRAINT payment_link_deposit_complete
        CHECK ((receiving_key_id IS NULL) = (derivation_index IS NULL)
           AND (receiving_key_id IS NULL) = (deposit_address IS NULL));

-- Each derived address pays exactly one link.
CREATE UNIQUE INDEX payment_link_deposit_index ON payment_link (receiving_key_id, derivation_index)
    WHERE receiving_key_id IS NOT NULL;
