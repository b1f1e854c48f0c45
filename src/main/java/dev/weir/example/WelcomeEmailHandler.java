package dev.weir.example;

import dev.weir.api.JobContext;
import dev.weir.api.JobHandler;
import dev.weir.api.JobKind;
import dev.weir.api.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * An example of an application's handler: a CDI bean for one job kind with typed arguments. Submit one with
 * {@code submitter.submit(WelcomeEmailHandler.KIND, new WelcomeEmail("ada@example.com", "Ada"))}, or over REST
 * with {@code {"kind": "example.welcome-email", "args": {"to": "ada@example.com", "name": "Ada"}}}.
 */
@ApplicationScoped
public class WelcomeEmailHandler implements JobHandler<WelcomeEmailHandler.WelcomeEmail> {

    public static final JobKind<WelcomeEmail> KIND = JobKind.of("example.welcome-email", WelcomeEmail.class);

    private static final Logger LOG = Logger.getLogger(WelcomeEmailHandler.class.getName());

    /** The job's arguments, stored as JSON. */
    public record WelcomeEmail(String to, String name) {
    }

    @Override
    public JobKind<WelcomeEmail> kind() {
        return KIND;
    }

    @Override
    public Outcome handle(JobContext<WelcomeEmail> job) {
        WelcomeEmail email = job.args();
        if (email.to() == null || !email.to().contains("@")) {
            // Retrying cannot fix a bad address: end the job now, with the reason in its error history.
            return Outcome.discard("not an email address: " + email.to());
        }
        if (email.to().endsWith(".invalid")) {
            // A stand-in for a mail server that is down: try again later, with back-off.
            return Outcome.retryAfter(Duration.ofSeconds(30), "mail server for " + email.to() + " unreachable");
        }
        LOG.info(() -> "example: welcome email to " + email.to() + " (job " + job.id() + ", attempt " + job.attempt() + ")");
        return Outcome.complete();
    }
}
