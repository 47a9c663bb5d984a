-- Supported currencies and the networks each can be paid on (reference data).

CREATE TABLE currency (
    id   UUID PRIMARY KEY,
    code TEXT NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{3,10}$'),
    name TEXT NOT NULL
);

-- Networks a currency can be paid on; priority 1 is the one the service chooses for new links.
CREATE TABLE currency_network (
    currency_code TEXT    NOT NULL REFERENCES currency (code),
    network       TEXT    NOT NULL,
    chain_id      BIGINT  NOT NULL,
    priority      INT     NOT NULL,
    PRIMARY KEY (currency_code, network),
    UNIQUE (currency_code, priority)
);

-- Ids are fixed so clients may keep them.
INSERT INTO currency (id, code, name) VALUES
    ('ada51fc3-ad1b-565d-9f32-cfbd44c17e6a', 'AVAX', 'Avalanche'),
    ('3492d1a6-57ce-5f48-81f3-d0360e139492', 'BNB', 'BNB'),
    ('e36b4fed-a45c-546a-919b-02a71cf1091e', 'ETH', 'Ethereum'),
    ('5bca4a4f-27f4-50a0-bd30-1c880c27e127', 'LINK', 'ChainLink'),
    ('8869f514-71db-5d4f-9dda-b9126cb24da7', 'USDC', 'USD Coin'),
    ('82c48f90-97cf-5382-bc0a-024c1ad1e888', 'USDT', 'Tether USD'),
    ('d830fbe8-807b-51e4-8c0c-464de2f353c5', 'WBTC', 'Wrapped BTC'),
    ('41fd9b98-2cfb-5842-a4b4-9851809551cd', 'WETH', 'Wrapped Ethereum');

INSERT INTO currency_network (currency_code, network, chain_id, priority) VALUES
    ('AVAX', 'Avalanche C-Chain', 43114, 1),
    ('AVAX', 'BNB Smart Chain', 56, 2),
    ('BNB', 'BNB Smart Chain', 56, 1),
    ('BNB', 'opBNB', 204, 2),
    ('BNB', 'Ethereum', 1, 3),
    ('ETH', 'Ethereum', 1, 1),
    ('ETH', 'Arbitrum One', 42161, 2),
    ('ETH', 'OP Mainnet', 10, 3),
    ('ETH', 'Base', 8453, 4),
    ('ETH', 'Linea', 59144, 5),
    ('LINK', 'Ethereum', 1, 1),
    ('LINK', 'Arbitrum One', 42161, 2),
    ('LINK', 'OP Mainnet', 10, 3),
    ('LINK', 'Base', 8453, 4),
    ('LINK', 'Polygon PoS', 137, 5),
    ('LINK', 'BNB Smart Chain', 56, 6),
    ('USDC', 'Ethereum', 1, 1),
    ('USDC', 'Arbitrum One', 42161, 2),
    ('USDC', 'OP Mainnet', 10, 3),
    ('USDC', 'Base', 8453, 4),
    ('USDC', 'Polygon PoS', 137, 5),
    ('USDC', 'Avalanche C-Chain', 43114, 6),
    ('USDC', 'BNB Smart Chain', 56, 7),
    ('USDT', 'Ethereum', 1, 1),
    ('USDT', 'Arbitrum One', 42161, 2),
    ('USDT', 'OP Mainnet', 10, 3),
    ('USDT', 'Base', 8453, 4),
    ('USDT', 'Polygon PoS', 137, 5),
    ('USDT', 'Avalanche C-Chain', 43114, 6),
    ('USDT', 'BNB Smart Chain', 56, 7),
    ('WBTC', 'Ethereum', 1, 1),
    ('WBTC', 'Arbitrum One', 42161, 2),
    ('WBTC', 'OP Mainnet', 10, 3),
    ('WBTC', 'Polygon PoS', 137, 4),
    ('WBTC', 'Base', 8453, 5),
    ('WETH', 'Ethereum', 1, 1),
    ('WETH', 'Arbitrum One', 42161, 2),
    ('WETH', 'OP Mainnet', 10, 3),
    ('WETH', 'Base', 8453, 4),
    ('WETH', 'Polygon PoS', 137, 5),
    ('WETH', 'Linea', 59144, 6);
