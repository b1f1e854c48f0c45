package dev.weir.submit;

import dev.weir.api.Admission;
import dev.weir.api.InvalidJobException;
import dev.weir.api.JobOptions;
import dev.weir.api.JobKind;
import dev.weir.api.JobRequest;
import dev.weir.api.JobSubmitter;
import dev.weir.api.QueueFullException;
import dev.weir.config.WeirConfiguration;
import dev.weir.dispatch.ArgsCodec;
import dev.weir.dispatch.JsonbArgsCodec;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.JtaTransactor;
import dev.weir.store.NewJob;
import dev.weir.store.Sql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link JobSubmitter} applications inject. Joins the caller's JTA transaction (or runs in one of its own):
 * the insert, and the {@code NOTIFY} that wakes the dispatchers, take effect when that transaction commits.
 *
 * <p>A bounded queue's jobs are admitted through {@link AdmissionSlots} in that same transaction. A refusal stores
 * nothing and does not mark the caller's transaction for rollback ({@code dontRollbackOn}): the caller decides.
 */
@ApplicationScoped
@Transactional(value = Transactional.TxType.REQUIRED, dontRollbackOn = QueueFullException.class)
public class DefaultJobSubmitter implements JobSubmitter {

    private final ArgsCodec codec = new JsonbArgsCodec();

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @Inject
    Announcer announcer;

    @Inject
    AdmissionControl admission;

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
     * Inserts already-validated jobs (also used by the REST API); answers each id and state in the list's order. The
     * queues that got available jobs are woken when the transaction commits.
     *
     * @throws QueueFullException when a bounded queue has no room; nothing is stored
     */
    public List<JobStore.Inserted> insertValidated(List<NewJob> jobs) {
        Sql sql = transactor.current();
        Placed placed = place(sql, jobs);
        if (placed.refusal() != null) {
            throw new QueueFullException(admission.refusal(sql, placed.refusal()));
        }
        return placed.inserted();
    }

    /** What became of a submission: the jobs in the list's order, or the admission's refusal (nothing stored). */
    private record Placed(List<JobStore.Inserted> inserted, AdmissionSlots.Result refusal) {
    }

    /**
     * Stores the jobs: the plain ones through admission in one statement (all or nothing), then each unique one with
     * its insert-or-get (a duplicate answers the existing job, also when it is an earlier job of the same list, which
     * this transaction already sees). Unique jobs never go to a bounded queue (validation refuses that).
     */
    private Placed place(Sql sql, List<NewJob> jobs) {
        List<NewJob> plain = new ArrayList<>(jobs.size());
        for (NewJob j : jobs) {
            if (!j.unique()) {
                plain.add(j);
            }
        }
        List<JobStore.Inserted> plainRows = List.of();
        if (!plain.isEmpty()) {
            AdmissionSlots.Result result = admit(sql, plain);
            if (!result.admitted()) {
                return new Placed(null, result);
            }
            plainRows = result.inserted();
        }
        if (plain.size() == jobs.size()) {
            return new Placed(plainRows, null);
        }
        List<JobStore.Inserted> all = new ArrayList<>(jobs.size());
        Set<String> ready = new LinkedHashSet<>();
        List<NewJob> unique = new ArrayList<>();
        List<JobStore.Inserted> uniqueRows = new ArrayList<>();
        Iterator<JobStore.Inserted> nextPlain = plainRows.iterator();
        for (NewJob j : jobs) {
            if (!j.unique()) {
                all.add(nextPlain.next());
                continue;
            }
            JobStore.Inserted u = JobStore.insertUnique(sql, j);
            if (!u.duplicate() && u.state() == JobState.AVAILABLE) {
                ready.add(u.queue());
            }
            if (!u.duplicate()) {
                unique.add(j);
                uniqueRows.add(u);
            }
            all.add(u);
        }
        announcer.afterCommit(ready);
        announcer.submittedOnCommit(unique, uniqueRows);
        return new Placed(all, null);
    }

    private AdmissionSlots.Result admit(Sql sql, List<NewJob> jobs) {
        AdmissionSlots.Result result = AdmissionSlots.insert(sql, jobs, admission.bounds());
        if (result.admitted()) {
            announcer.afterCommit(result.inserted().stream().filter(j -> j.state() == JobState.AVAILABLE)
                    .map(JobStore.Inserted::queue).distinct().toList());
            announcer.submittedOnCommit(jobs, result.inserted());
        }
        return result;
    }

    @Override
    public Admission trySubmitJson(String kind, String argsJson, JobOptions options) {
        NewJob job = Submissions.validate(configuration.settings(), kind, Submissions.requireObject(argsJson), options,
                Instant.now());
        return answer(transactor.current(), List.of(job));
    }

    @Override
    public Admission trySubmitAll(List<? extends JobRequest<?>> requests) {
        return answer(transactor.current(), validate(requests));
    }

    private Admission answer(Sql sql, List<NewJob> jobs) {
        Placed placed = place(sql, jobs);
        if (placed.refusal() != null) {
            return admission.refusal(sql, placed.refusal());
        }
        return new Admission.Admitted(placed.inserted().stream().map(JobStore.Inserted::id).toList());
    }

    @Override
    public List<Long> submitAll(List<? extends JobRequest<?>> requests) {
        return insertValidated(validate(requests)).stream().map(JobStore.Inserted::id).toList();
    }

    private List<NewJob> validate(List<? extends JobRequest<?>> requests) {
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
        return jobs;
    }
}
