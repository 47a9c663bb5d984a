package dev.cryptopay.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.client.subscriptions.model.Plan;
import dev.cryptopay.client.subscriptions.model.PlanList;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PagesTest {

    private final List<Integer> pagesRead = new ArrayList<>();

    /** Seven plans, three to a page. */
    private PlanList plans(int page) {
        pagesRead.add(page);
        List<Plan> all = IntStream.range(0, 7)
                .mapToObj(i -> new Plan().id(new UUID(0, i)))
                .toList();
        int from = Math.min((page - 1) * 3, all.size());
        return new PlanList()
                .plans(all.subList(from, Math.min(from + 3, all.size())))
                .page(page)
                .pageSize(3)
                .total(7L)
                .totalPages(3);
    }

    @Test
    void everyItemOfEveryPageIsWalkedInOrderReadingOnlyWhatIsConsumed() {
        assertThat(Pages.stream(this::plans, Pages.PLANS).limit(2).toList()).hasSize(2);
        assertThat(pagesRead).containsExactly(1);

        pagesRead.clear();
        assertThat(Pages.stream(this::plans, Pages.PLANS)
                        .map(plan -> plan.getId().getLeastSignificantBits()))
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(pagesRead).containsExactly(1, 2, 3);
    }

    @Test
    void anEmptyListReadsOnePage() {
        assertThat(Pages.stream(
                        page -> new PlanList().plans(List.of()).page(page).totalPages(0), Pages.PLANS))
                .isEmpty();
    }

    @Test
    void aFailedReadIsThrownWhereTheStreamIsConsumed() {
        CryptoPayException notFound = CryptoPayException.from(
                404, java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true), "{\"code\":\"not_found\"}");

        assertThatThrownBy(() -> Pages.stream(
                                page -> {
                                    throw notFound;
                                },
                                Pages.PLANS)
                        .toList())
                .isSameAs(notFound);
    }
}
