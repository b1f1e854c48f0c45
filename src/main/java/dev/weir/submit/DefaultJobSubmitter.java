package dev.weir.submit;

import dev.weir.api.InvalidJobException;
import dev.weir.api.JobOptions;
import dev.weir.api.JobKind;
import dev.weir.api.JobRequest;
import dev.weir.api.JobSubmitter;
import dev.weir.config.WeirConfiguration;
import dev.weir.dispatch.ArgsCodec;
import dev.weir.dispatch.JsonbArgsCodec;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.JtaTransactor;
import dev.weir.store.NewJob;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link JobSubmitter} applications inject. Joins the caller's JTA transaction (or runs in one of its own):
 * the insert, and the {@code NOTIFY} that wakes the dispatchers, take effect when that transaction commits.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.REQUIRED)
public class DefaultJobSubmitter implements JobSubmitter {

    private final ArgsCodec codec = new JsonbArgsCodec();

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @Inject
    Announcer announcer;

    @Override
    public <A> long submit(JobKind<A> kind, A args, JobOptions options) {
        return submitAll(List.of(JobRequest.of(kind, args, options))).get(0);
    }

    @Override
    public long submitJson(String kind, String argsJson, JobOptions options) {
        NewJob job = Submissions.validate(configuration.settings(), kind, Submissions.requireObject(argsJson), options,
                Instant.now());
        return insertValidated(List.of(job)).get(0).id();
    }

    /**
     * Inserts already-validated jobs in one statement (also used by the REST API); answers each id and state. The
     * queues that got available jobs are woken when the transaction commits.
     */
    public List<JobStore.Inserted> insertValidated(List<NewJob> jobs) {
        List<JobStore.Inserted> inserted = JobStore.insert(transactor.current(), jobs);
        announcer.afterCommit(inserted.stream().filter(j -> j.state() == JobState.AVAILABLE)
                .map(JobStore.Inserted::queue).distinct().toList());
        return inserted;
    }

    @Override
    public List<Long> submitAll(List<? extends JobRequest<?>> requests) {
        if (requests.size() > Submissions.MAX_BATCH) {
            throw new InvalidJobException("batch_too_large", "a batch holds at most " + Submissions.MAX_BATCH
                    + " jobs, this one " + requests.size());
        }
        Instant now = Instant.now();
        List<NewJob> jobs = new ArrayList<>(requests.size());
        for (JobRequest<?> r : requests) {
            String json;
            try {
                json = codec.encode(r.args());
            } catch (RuntimeException e) {
                throw new InvalidJobException("invalid_args", "cannot encode args of kind " + r.kind().name()
                        + " as JSON: " + e.getMessage(), e);
            }
            if (!json.startsWith("{")) {
                throw new InvalidJobException("invalid_args", "args of kind " + r.kind().name()
                        + " must encode to a JSON object, not " + json);
            }
            jobs.add(Submissions.validate(configuration.settings(), r.kind().name(), json, r.options(), now));
        }
        return insertValidated(jobs).stream().map(JobStore.Inserted::id).toList();
    }
}
