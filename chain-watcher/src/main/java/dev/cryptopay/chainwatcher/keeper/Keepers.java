package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.scan.ChainClient;
import dev.cryptopay.chainwatcher.scan.LeasedWork;
import dev.cryptopay.service.production.ProductionSafety;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Gives each chain its {@link Keeper}, run by the chain's scanner at the end of each pass: a chain with a subscription
 * contract and a {@code keeper-key-file} has one, unless {@code chain-watcher.keeper.enabled} is false. Which chains
 * have none, and why, is logged once at start. A key file that cannot be read, or holds no key, stops the start: a
 * keeper configured but missing would leave subscriptions uncollected unnoticed; so does, under the production profile,
 * a public development key ({@link DevelopmentKeys}).
 */
@Component
public class Keepers implements LeasedWork.Source {

    private static final Logger log = LoggerFactory.getLogger(Keepers.class);

    private final ChainWatcherProperties properties;
    private final KeptSubscriptionRepository subscriptions;
    private final KeeperTransactionRepository transactions;
    private final SubscriptionsReporter subscriptionsService;
    private final KeeperMetrics metrics;
    private final boolean production;
    private final Clock clock;

    Keepers(
            ChainWatcherProperties properties,
            KeptSubscriptionRepository subscriptions,
            KeeperTransactionRepository transactions,
            SubscriptionsReporter subscriptionsService,
            KeeperMetrics metrics,
            Environment environment,
            Clock clock) {
        this.properties = properties;
        this.subscriptions = subscriptions;
        this.transactions = transactions;
        this.subscriptionsService = subscriptionsService;
        this.metrics = metrics;
        this.production = environment.matchesProfiles(ProductionSafety.PROFILE);
        this.clock = clock;
    }

    @Override
    public Optional<LeasedWork> forChain(Network network, ChainClient client) {
        Optional<Path> keyFile = network.keeperKey();
        if (network.contract().isEmpty() || keyFile.isEmpty()) {
            log.info(
                    "Chain {} ({}): no keeper ({})",
                    network.chainId(),
                    network.name(),
                    network.contract().isEmpty() ? "no subscription-contract" : "no keeper-key-file");
            return Optional.empty();
        }
        if (!properties.keeper().enabled()) {
            log.info(
                    "Chain {} ({}): no keeper (chain-watcher.keeper.enabled is false)",
                    network.chainId(),
                    network.name());
            return Optional.empty();
        }
        Signer signer = Signer.read(keyFile.get(), network.chainId());
        refuseDevelopmentKey(signer, network, production);
        Keeper keeper = keeper(network, client, signer, properties.keeper());
        log.info(
                "Chain {} ({}): keeper {} collects the subscriptions of {} that subscriptions-service answers for",
                network.chainId(),
                network.name(),
                keeper.address(),
                network.contract().get());
        return Optional.of(keeper);
    }

    /**
     * Under the production profile, a keeper key that is one of the public development keys stops the start: anyone
     * could spend its gas and take its nonces.
     */
    static void refuseDevelopmentKey(Signer signer, Network network, boolean production) {
        if (production && DevelopmentKeys.isDevelopmentKey(signer.address())) {
            throw new IllegalStateException("The keeper key of chain " + network.chainId() + " (" + network.name()
                    + ", keeper-key-file) is " + signer.address() + ", a public development key of the test mnemonic"
                    + " that the production profile refuses; generate a key of its own");
        }
    }

    /** A keeper of one chain with this key and these settings (tests make several on one database). */
    Keeper keeper(Network network, ChainClient client, Signer signer, ChainWatcherProperties.Keeper settings) {
        return new Keeper(
                network, client, signer, settings, subscriptions, transactions, subscriptionsService, metrics, clock);
    }
}
