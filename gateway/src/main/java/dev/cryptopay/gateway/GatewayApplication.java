package dev.cryptopay.gateway;

import dev.cryptopay.gateway.admin.AdminCli;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The gateway server, or with {@code admin …} arguments the bootstrap command line (see {@link AdminCli}). */
@SpringBootApplication
public class GatewayApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("admin")) {
            System.exit(AdminCli.run(
                    GatewayApplication.class, Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        SpringApplication.run(GatewayApplication.class, args);
    }
}
