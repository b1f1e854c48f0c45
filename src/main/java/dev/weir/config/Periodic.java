package dev.weir.config;

import dev.weir.cron.CronExpression;
import java.time.ZoneId;

/**
 * A periodic job, from {@code weir.cron.<name>.*}: on every fire of {@code schedule} (read in {@code zone}), one job
 * of {@code kind} with {@code argsJson} is submitted to {@code queue}, by one instance however many run.
 *
 * @param name     follows the queue-name rule
 * @param argsJson a JSON object
 */
public record Periodic(String name, CronExpression schedule, String kind, String queue, String argsJson, ZoneId zone) {
}
