package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.webhooks.address.AddressPolicy;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.resolver.InetSocketAddressResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Resolves webhook hosts and refuses the connection when any address of the host is not allowed. The check runs at
 * connect time, after DNS, so a host name cannot smuggle a private address past a check made at registration; a
 * host that mixes public and private addresses is refused as a whole.
 */
final class PublicAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    private final AddressPolicy policy;

    PublicAddressResolverGroup(AddressPolicy policy) {
        this.policy = policy;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new InetSocketAddressResolver(executor, new InetNameResolver(executor) {
            @Override
            protected void doResolve(String host, Promise<InetAddress> promise) {
                try {
                    promise.setSuccess(allowedAddresses(host).get(0));
                } catch (UnknownHostException e) {
                    promise.setFailure(e);
                }
            }

            @Override
            protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                try {
                    promise.setSuccess(allowedAddresses(host));
                } catch (UnknownHostException e) {
                    promise.setFailure(e);
                }
            }
        });
    }

    private List<InetAddress> allowedAddresses(String host) throws UnknownHostException {
        List<InetAddress> addresses = Arrays.asList(InetAddress.getAllByName(host));
        if (addresses.isEmpty() || !addresses.stream().allMatch(policy::isAllowed)) {
            throw new RefusedAddressException(host);
        }
        return addresses;
    }
}
