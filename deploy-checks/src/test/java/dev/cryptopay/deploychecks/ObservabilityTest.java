package dev.cryptopay.deploychecks;

import static dev.cryptopay.deploychecks.Repo.at;
import static dev.cryptopay.deploychecks.Repo.list;
import static dev.cryptopay.deploychecks.Repo.map;
import static dev.cryptopay.deploychecks.Repo.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.minidev.json.parser.JSONParser;
import org.junit.jupiter.api.Test;

/** deploy/observability: scrape config, alert rules and their runbooks, the Grafana dashboard. */
class ObservabilityTest {

    static final Path DIR = Repo.path("deploy/observability");
    static final String PROMTOOL_HELP = "Install it: Debian/Ubuntu `apt-get install prometheus` (or extract "
            + "usr/bin/promtool from `apt-get download prometheus`), or a release from https://prometheus.io/download/.";

    static Map<String, Object> prometheus() {
        return Repo.yamlMap(Repo.read(DIR.resolve("prometheus.yml")));
    }

    /** Every alerting rule, in file order. */
    static List<Map<String, Object>> alerts() {
        List<Map<String, Object>> alerts = new ArrayList<>();
        for (Map<String, Object> group :
                maps(Repo.yamlMap(Repo.read(DIR.resolve("alerts.yml"))).get("groups"))) {
            alerts.addAll(maps(group.get("rules")));
        }
        return alerts;
    }

    /** Whether a module serves /actuator/prometheus: it, or service-support it uses, has the Prometheus registry. */
    static boolean exportsPrometheusMetrics(String module) {
        String pom = Repo.read(module + "/pom.xml");
        return pom.contains("<artifactId>micrometer-registry-prometheus</artifactId>")
                || pom.contains("<artifactId>service-support</artifactId>")
                        && Repo.read("service-support/pom.xml").contains("micrometer-registry-prometheus");
    }

    @Test
    void prometheusScrapesEachServiceWhereComposeServesItsMetrics() {
        Map<String, Object> config = prometheus();
        Map<String, Map<String, Object>> jobs = new LinkedHashMap<>();
        maps(config.get("scrape_configs")).forEach(job -> jobs.put(String.valueOf(job.get("job_name")), job));
        assertThat(jobs).containsOnlyKeys(Repo.SERVICES.toArray(String[]::new));
        jobs.forEach((service, job) -> {
            assertThat(job.get("metrics_path")).as(service).isEqualTo("/actuator/prometheus");
            List<Object> targets = list(at(maps(job.get("static_configs")).get(0), "targets"));
            int port = ComposeFileTest.actuatorPort(ComposeFileTest.env(service));
            assertThat(targets).as(service + " target").containsExactly(service + ":" + port);
        });
        for (Object ruleFile : list(config.get("rule_files"))) {
            assertThat(DIR.resolve(String.valueOf(ruleFile))).isRegularFile();
        }
    }

    @Test
    void everyAlertHasSeverityTextAndARunbook() {
        List<Map<String, Object>> alerts = alerts();
        assertThat(alerts).isNotEmpty();
        Set<String> names = new HashSet<>();
        for (Map<String, Object> alert : alerts) {
            String name = String.valueOf(alert.get("alert"));
            assertThat(names.add(name)).as("unique alert name " + name).isTrue();
            assertThat(alert).as(name).containsKeys("expr", "for");
            assertThat(at(alert, "labels", "severity")).as(name).isIn("critical", "warning");
            assertThat(map(alert.get("annotations"))).as(name).containsKeys("summary", "description", "runbook_url");
        }
    }

    @Test
    void runbookUrlsPointToASectionThatSaysWhatItMeansHowToCheckAndWhatToDo() {
        for (Map<String, Object> alert : alerts()) {
            String name = String.valueOf(alert.get("alert"));
            String url = String.valueOf(at(alert, "annotations", "runbook_url"));
            assertThat(url).as(name).matches("docs/runbooks/[a-z-]+\\.md#[a-z0-9_-]+");
            String file = url.substring(0, url.indexOf('#'));
            String anchor = url.substring(url.indexOf('#') + 1);
            String section = Markdown.section(Repo.read(file), anchor);
            assertThat(section)
                    .as(name + ": " + url + " names a heading of " + file)
                    .isNotNull();
            assertThat(section)
                    .as(name + " runbook section")
                    .contains("**Meaning.**")
                    .contains("Check")
                    .contains("ction");
            assertThat(anchor).as("the section is named after the alert").isEqualTo(name.toLowerCase());
        }
    }

    @Test
    void alertExpressionsReadOnlyMetricsThatAModuleExports() {
        List<String> problems = new ArrayList<>();
        for (Map<String, Object> alert : alerts()) {
            Set<String> names = Metrics.namesIn(String.valueOf(alert.get("expr")));
            assertThat(names).as(alert.get("alert") + " reads some metric").isNotEmpty();
            names.stream()
                    .filter(metric -> !Metrics.isExported(metric))
                    .forEach(metric -> problems.add(alert.get("alert") + ": " + metric));
        }
        assertThat(problems)
                .as("metrics no module exports (grep of src/main/java for the Micrometer name)")
                .isEmpty();
    }

    @Test
    void theOperationalConditionsAreAlerted() {
        String expressions = String.join(
                "\n", alerts().stream().map(a -> String.valueOf(a.get("expr"))).toList());
        assertThat(expressions)
                .contains(
                        "webhook_consumer_lag_total_records",
                        "webhook_consumer_newest_event_age_seconds",
                        "outbox_oldest_pending_age_seconds",
                        "webhook_delivery_attempts_total",
                        "webhook_parked_records",
                        "gateway_ratelimit_rejected_total",
                        "webhook_deliveries_oldest_due_age_seconds",
                        "chain_watcher_head_lag_seconds",
                        "chain_watcher_rpc_errors_total",
                        "notifications_attempts_total");
        assertThat(expressions).containsPattern("http_server_requests_seconds_count\\{status=~\"5\\.\\.\"");
        Map<String, Object> fallingBehind = alerts().stream()
                .filter(a -> "WebhookConsumerFallingBehind".equals(a.get("alert")))
                .findFirst()
                .orElseThrow();
        assertThat(String.valueOf(fallingBehind.get("expr")))
                .as("age counts only while records wait")
                .containsPattern("webhook_consumer_newest_event_age_seconds\\)\\s*>\\s*\\d+\\s+and on \\(job\\)")
                .containsPattern("webhook_consumer_lag_total_records\\)\\s*>\\s*0");
        Map<String, Object> stalled = alerts().stream()
                .filter(a -> "ChainWatcherStalled".equals(a.get("alert")))
                .findFirst()
                .orElseThrow();
        assertThat(String.valueOf(stalled.get("expr")))
                .as("per chain, and the instance holding the lease (the others' gauges stand still) decides")
                .startsWith("min by (job, chain_id, network) (chain_watcher_head_lag_seconds)");
        assertThat(String.valueOf(alert("NotificationsGivenUp").get("expr")))
                .as("a template's counter is registered at its first give-up (a new series at 1, which increase() "
                        + "cannot see): a series absent an hour before counts whole")
                .containsPattern("notifications_attempts_total\\{outcome=\"given_up\"}\\s+unless\\s+"
                        + "notifications_attempts_total\\{outcome=\"given_up\"} offset 1h")
                .containsPattern("or\\s+increase\\(notifications_attempts_total\\{outcome=\"given_up\"}\\[1h]\\)");
        assertThat(String.valueOf(alert("NotificationsFailing").get("expr")))
                .as(
                        "a pod that has sent nothing since it started has no sent series to compare with 0: unless, not and")
                .containsPattern(
                        "rate\\(notifications_attempts_total\\{outcome=\"retry\"}\\[15m]\\)\\) > 0\\s+"
                                + "unless on \\(job\\)\\s+"
                                + "sum by \\(job\\) \\(rate\\(notifications_attempts_total\\{outcome=\"sent\"}\\[15m]\\)\\) > 0");
    }

    static Map<String, Object> alert(String name) {
        return alerts().stream()
                .filter(a -> name.equals(a.get("alert")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("alerts.yml has no alert " + name));
    }

    @Test
    void theDashboardShowsEveryChainWatcherMetric() {
        String dashboard = Repo.read(DIR.resolve("grafana-dashboard.json"));
        assertThat(dashboard)
                .contains(
                        "chain_watcher_head_lag_blocks",
                        "chain_watcher_head_lag_seconds",
                        "chain_watcher_consumer_lag_total_records",
                        "chain_watcher_rpc_errors_total",
                        "chain_watcher_watched_addresses",
                        "chain_watcher_detections_total",
                        "chain_watcher_reorgs_total");
    }

    @Test
    void theDashboardShowsEveryNotificationMetric() {
        String dashboard = Repo.read(DIR.resolve("grafana-dashboard.json"));
        assertThat(dashboard).contains("notifications_attempts_total", "notifications_intake_invalid_total");
    }

    @Test
    void serviceDownWatchesExactlyTheServicesThatExportMetrics() {
        Map<String, Object> serviceDown = alerts().stream()
                .filter(a -> "ServiceDown".equals(a.get("alert")))
                .findFirst()
                .orElseThrow();
        Matcher jobs = Pattern.compile("up\\{job=~\"([^\"]+)\"}").matcher(String.valueOf(serviceDown.get("expr")));
        assertThat(jobs.find()).isTrue();
        Set<String> exporting = new TreeSet<>(Repo.SERVICES.stream()
                .filter(ObservabilityTest::exportsPrometheusMetrics)
                .toList());
        assertThat(new TreeSet<>(List.of(jobs.group(1).split("\\|"))))
                .as("ServiceDown must cover every service serving /actuator/prometheus (update alerts.yml and "
                        + "alerts.test.yml when one starts exporting)")
                .isEqualTo(exporting);
    }

    @Test
    void promtoolAcceptsTheConfigurationAndTheRules() {
        ExternalTool promtool = ExternalTool.required("promtool", "SKIP_PROMTOOL", PROMTOOL_HELP);
        ExternalTool.Result config = promtool.run(DIR, "check", "config", "prometheus.yml");
        assertThat(config.exitCode())
                .as("promtool check config prometheus.yml\n" + config.output())
                .isZero();
        ExternalTool.Result rules = promtool.run(DIR, "check", "rules", "alerts.yml");
        assertThat(rules.exitCode())
                .as("promtool check rules alerts.yml\n" + rules.output())
                .isZero();
        assertThat(rules.output()).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void promtoolUnitTestsOfTheAlertsPass() {
        ExternalTool promtool = ExternalTool.required("promtool", "SKIP_PROMTOOL", PROMTOOL_HELP);
        ExternalTool.Result result = promtool.run(DIR, "test", "rules", "alerts.test.yml");
        assertThat(result.exitCode())
                .as("promtool test rules alerts.test.yml\n" + result.output())
                .isZero();
        String tests = Repo.read(DIR.resolve("alerts.test.yml"));
        for (Map<String, Object> alert : alerts()) {
            assertThat(tests)
                    .as("alerts.test.yml makes " + alert.get("alert") + " fire")
                    .contains("alertname: " + alert.get("alert") + "\n        exp_alerts:");
        }
    }

    @Test
    void theDashboardIsValidJsonWithPanelsForWhatIsAlerted() throws Exception {
        String json = Repo.read(DIR.resolve("grafana-dashboard.json"));
        Object parsed = new JSONParser(JSONParser.MODE_RFC4627).parse(json);
        Map<String, Object> dashboard = map(parsed);
        assertThat(dashboard).containsKeys("uid", "title", "panels", "templating");
        assertThat(maps(at(dashboard, "templating", "list"))).anySatisfy(variable -> {
            assertThat(variable)
                    .containsEntry("name", "datasource")
                    .containsEntry("type", "datasource")
                    .containsEntry("query", "prometheus");
        });

        Set<Object> ids = new HashSet<>();
        List<int[]> areas = new ArrayList<>();
        StringBuilder expressions = new StringBuilder();
        List<String> unexported = new ArrayList<>();
        for (Map<String, Object> panel : maps(dashboard.get("panels"))) {
            assertThat(ids.add(panel.get("id")))
                    .as("unique panel id " + panel.get("id"))
                    .isTrue();
            Map<String, Object> grid = map(panel.get("gridPos"));
            int x = ((Number) grid.get("x")).intValue();
            int y = ((Number) grid.get("y")).intValue();
            int w = ((Number) grid.get("w")).intValue();
            int h = ((Number) grid.get("h")).intValue();
            assertThat(x + w).as(panel.get("title") + " fits 24 columns").isLessThanOrEqualTo(24);
            for (int[] other : areas) {
                boolean overlaps =
                        x < other[0] + other[2] && other[0] < x + w && y < other[1] + other[3] && other[1] < y + h;
                assertThat(overlaps)
                        .as(panel.get("title") + " overlaps another panel")
                        .isFalse();
            }
            areas.add(new int[] {x, y, w, h});
            if ("row".equals(panel.get("type"))) {
                continue;
            }
            assertThat(at(panel, "datasource", "uid"))
                    .as(String.valueOf(panel.get("title")))
                    .isEqualTo("${datasource}");
            for (Map<String, Object> target : maps(panel.get("targets"))) {
                String expr = String.valueOf(target.get("expr"));
                expressions.append(expr).append('\n');
                Metrics.namesIn(expr).stream()
                        .filter(m -> !Metrics.isExported(m))
                        .forEach(m -> unexported.add(panel.get("title") + ": " + m));
            }
        }
        assertThat(unexported).as("dashboard metrics no module exports").isEmpty();
        for (Map<String, Object> alert : alerts()) {
            for (String metric : Metrics.namesIn(String.valueOf(alert.get("expr")))) {
                assertThat(expressions.toString())
                        .as("a panel shows " + metric + " (alert " + alert.get("alert") + ")")
                        .contains(metric);
            }
        }
    }

    @Test
    void grafanaOfComposeLoadsTheDashboardFromPrometheus() {
        Map<String, Object> datasources =
                Repo.yamlMap(Repo.read(DIR.resolve("grafana/provisioning/datasources/prometheus.yml")));
        assertThat(maps(datasources.get("datasources")).get(0))
                .containsEntry("type", "prometheus")
                .containsEntry("url", "http://prometheus:9090");
        Map<String, Object> providers =
                Repo.yamlMap(Repo.read(DIR.resolve("grafana/provisioning/dashboards/cryptopay.yml")));
        String path = String.valueOf(at(maps(providers.get("providers")).get(0), "options", "path"));
        assertThat(list(at(ComposeFileTest.CONTAINERS, "grafana", "volumes")))
                .contains("./deploy/observability/grafana-dashboard.json:" + path + "/cryptopay.json:ro");
    }

    @Test
    void metricNameExtractionIgnoresFunctionsLabelsAndKeywords() {
        assertThat(Metrics.namesIn("""
                (sum by (job) (rate(http_server_requests_seconds_count{status=~"5..", uri!~"/actuator.*"}[5m]))
                  / sum by (job) (rate(http_server_requests_seconds_count[5m]))) > 0.05
                and on (job) max by (job) (webhook_consumer_lag_total_records) > 1e3"""))
                .containsExactly("http_server_requests_seconds_count", "webhook_consumer_lag_total_records");
        assertThat(Metrics.isExported("webhook_consumer_lag_total_records")).isTrue();
        assertThat(Metrics.isExported("outbox_oldest_pending_age_seconds")).isTrue();
        assertThat(Metrics.isExported("gateway_ratelimit_rejected_total")).isTrue();
        assertThat(Metrics.isExported("webhook_delivery_event_to_success_seconds_bucket"))
                .isTrue();
        assertThat(Metrics.isExported("webhook_consumer_backlog_records")).isFalse();
        assertThat(Metrics.isExported("gateway_requests_total")).isFalse();
    }
}
