package dev.cryptopay.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * How latency grows with load: one point per offered rate, written as CSV (the figures) and as a PNG plot drawn from
 * the same figures.
 */
final class LatencyCurve {

    /** One step of the curve: the rate offered and the latencies measured at it, in milliseconds. */
    record Point(
            double offeredPerSecond,
            double achievedPerSecond,
            double createP50,
            double createP99,
            double webhookP50,
            double webhookP99) {}

    private final List<Point> points = new ArrayList<>();

    void add(Point point) {
        points.add(point);
    }

    List<Point> points() {
        return List.copyOf(points);
    }

    void writeCsv(Path file) throws IOException {
        StringBuilder csv = new StringBuilder("offered_per_second,achieved_per_second,create_p50_ms,create_p99_ms,"
                + "create_to_webhook_p50_ms,create_to_webhook_p99_ms\n");
        for (Point p : points) {
            csv.append(String.format(
                    java.util.Locale.ROOT,
                    "%.1f,%.1f,%.2f,%.2f,%.2f,%.2f%n",
                    p.offeredPerSecond(),
                    p.achievedPerSecond(),
                    p.createP50(),
                    p.createP99(),
                    p.webhookP50(),
                    p.webhookP99()));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, csv);
    }

    void writePng(Path file, String title) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(520)
                .title(title)
                .xAxisTitle("creates offered per second (open loop)")
                .yAxisTitle("latency, ms (log scale)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        series(chart, "create → 201, p50", Point::createP50);
        series(chart, "create → 201, p99", Point::createP99);
        series(chart, "create → webhook answered, p50", Point::webhookP50);
        series(chart, "create → webhook answered, p99", Point::webhookP99);
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private void series(XYChart chart, String name, ToDoubleFunction<Point> latency) {
        XYSeries series = chart.addSeries(
                name,
                points.stream().mapToDouble(Point::offeredPerSecond).toArray(),
                points.stream()
                        .mapToDouble(p -> Math.max(0.1, latency.applyAsDouble(p)))
                        .toArray());
        series.setMarker(SeriesMarkers.CIRCLE);
    }
}
