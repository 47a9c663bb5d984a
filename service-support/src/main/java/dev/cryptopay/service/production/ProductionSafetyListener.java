package dev.cryptopay.service.production;

import java.util.List;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Profiles;

/**
 * Stops an application started with the {@code production} profile before anything else starts (no database
 * migration, no listener, no port) when {@link ProductionSafety} finds unsafe settings. Registered in
 * META-INF/spring.factories, so every service depending on service-support gets it. Runs after the configuration
 * files and profiles were loaded.
 */
public class ProductionSafetyListener implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ConfigurableEnvironment environment = event.getEnvironment();
        if (!environment.acceptsProfiles(Profiles.of(ProductionSafety.PROFILE))) {
            return;
        }
        List<String> problems = ProductionSafety.problems(environment);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Refusing to start with the production profile: "
                    + String.join("; ", problems)
                    + " (docs/deployment.md, Production configuration)");
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
