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
import dev.weir.store.SlotCursor;
import dev.weir.store.Sql;
import dev.weir.store.SqlFailures;
import dev.weir.store.SubmissionTransactor;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@link JobSubmitter} applications inject. Inside the caller's JTA transaction it joins that transaction: the
 * insert, and the {@code NOTIFY} that wakes the dispatchers, take effect when that transaction commits. Outside one,
 * the submission gets a transaction of its own, shared with the submissions of other threads waiting at the same
 * moment ({@link GroupCommit}, ADR 0030; a group that is one statement runs it in auto-commit, and so does a lone
 * submission to one bounded queue, ADR 0035): it is stored when the call returns, as before, for a fraction of a
 * commit.
 *
 * <p>A bounded queue's jobs are admitted through {@link AdmissionSlots} in that same transaction. A refusal stores
 * nothing and does not mark the caller's transaction for rollback: the caller decides.
 */
@ApplicationScoped
public class DefaultJobSubmitter implements JobSubmitter {

    /**
     * Shared transactions that may run at once. Two let one group fill while the other commits; more made no
     * difference with 16 submitting threads (ADR 0030).
     */
    static final int GROUPS_IN_FLIGHT = 2;

    /** Jobs that must be waiting before a second group starts beside a running one (ADR 0030). */
    static final int PARALLEL_JOBS = 64;

    private final ArgsCodec codec = new JsonbArgsCodec();

    private final GroupCommit<List<NewJob>, Answer> groups = new GroupCommit<>(GROUPS_IN_FLIGHT,
            Submissions.MAX_BATCH, PARALLEL_JOBS, List::size, this::boundedSingle, this::runGroup);

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @Inject
    SubmissionTransactor groupTransactor;

    @Inject
    Announcer announcer;

    @Inject
    AdmissionControl admission;

    @Resource
    TransactionSynchronizationRegistry registry;

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
        Answer answer = place(jobs);
        if (answer.refused() != null) {
            throw new QueueFullException(answer.refused());
        }
        return answer.inserted();
    }

    /** What became of a submission: the jobs in the list's order, or the admission's refusal (nothing stored). */
    record Answer(List<JobStore.Inserted> inserted, Admission.Refused refused) {
    }

    /** The submission's count of group commits: the shared transactions and the submissions they held. */
    public GroupCommit.Counts groupCounts() {
        return groups.counts();
    }

    /** Stores a submission in the caller's transaction, or in a shared one when the caller has none. */
    private Answer place(List<NewJob> jobs) {
        if (registry.getTransactionKey() != null) {
            Announcer.Announcements later = new Announcer.Announcements();
            Answer answer = place(transactor.current(), jobs, later);
            announcer.onCommit(later);
            return answer;
        }
        return groups.run(jobs);
    }

    /**
     * Stores a group of submissions. A group that takes one statement runs it on its own, so that it commits by itself
     * (ADR 0035): every submission plain and for unbounded queues (one insert), or every one a single plain job for the
     * same bounded queue (one admission; those it finds no room for are left to run alone). A group of one submission
     * of plain jobs for one bounded queue runs on its own too: its admission statements are each all or nothing, and
     * a refusal only reads. Any other group runs in one new transaction: the submissions whose jobs are all plain and
     * go to unbounded queues in one statement, the single plain jobs of each bounded queue in one statement as far as
     * it finds room, every other one with its own statements (admission's all or nothing holds per submission). A
     * statement that fails before anything is stored rolls the whole group back, and each submission is then run
     * alone. The queues are woken and the jobs recorded once the group has committed.
     */
    private List<Answer> runGroup(List<List<NewJob>> group) {
        Announcer.Announcements later = new Announcer.Announcements();
        List<Answer> answers;
        String singlesQueue = group.size() > 1 ? boundedSinglesQueue(group) : null;
        if (singlesQueue != null) {
            answers = alone(sql -> admitSingles(sql, singlesQueue, group, later));
        } else if (group.stream().allMatch(this::mergeable)) {
            answers = alone(sql -> insertMerged(sql, group, later));
        } else if (group.size() == 1 && oneBoundedQueue(group.get(0))) {
            answers = alone(sql -> List.of(place(sql, group.get(0), later)));
        } else {
            answers = groupTransactor.inNewTransaction(sql -> {
                try {
                    return placeAll(sql, group, later);
                } catch (RuntimeException e) {
                    throw new GroupCommit.Uncommitted(e);
                }
            });
        }
        announcer.onCommit(later);
        return answers;
    }

    /**
     * Runs a group's statement with no transaction around it (or a lone bounded submission's admission tries, each all
     * or nothing). The database's refusal of it stored nothing, so the group's submissions may run again alone; any
     * other failure may have come after the commit, and reaches every caller.
     */
    private List<Answer> alone(Function<Sql, List<Answer>> statement) {
        try {
            return groupTransactor.alone(statement);
        } catch (RuntimeException e) {
            if (SqlFailures.rolledBack(e)) {
                throw new GroupCommit.Uncommitted(e);
            }
            throw e;
        }
    }

    /**
     * Whether a submission is one plain job for a bounded queue: a group of those runs one admission statement, whose
     * fixed cost is several times the unbounded insert's (ADR 0011), so with no group running the next one waits a
     * moment for the callers such a group set free (ADR 0030, amendment "the callers of the last group").
     */
    private boolean boundedSingle(List<NewJob> jobs) {
        return jobs.size() == 1 && oneBoundedQueue(jobs);
    }

    /**
     * Whether a submission is plain jobs for one bounded queue only: its admission is all or nothing in each statement
     * it runs (the first window, each wider one, then the reads of a refusal), and at most one of them stores anything,
     * so it needs no transaction around them (ADR 0035, amendment "a group of one bounded submission").
     */
    private boolean oneBoundedQueue(List<NewJob> jobs) {
        String queue = jobs.get(0).queue();
        if (!admission.bounds().containsKey(queue)) {
            return false;
        }
        for (NewJob j : jobs) {
            if (j.unique() || !queue.equals(j.queue())) {
                return false;
            }
        }
        return true;
    }

    /** The bounded queue every submission of the group sends one plain job to; null when there is no such queue. */
    private String boundedSinglesQueue(List<List<NewJob>> group) {
        String queue = group.get(0).get(0).queue();
        for (List<NewJob> jobs : group) {
            if (!boundedSingle(jobs) || !queue.equals(jobs.get(0).queue())) {
                return null;
            }
        }
        return queue;
    }

    /** The single jobs of one bounded queue in one statement; those it found no room for stay unanswered (null). */
    private List<Answer> admitSingles(Sql sql, String queue, List<List<NewJob>> group,
            Announcer.Announcements later) {
        Answer[] answers = new Answer[group.size()];
        List<Integer> positions = new ArrayList<>(group.size());
        for (int i = 0; i < answers.length; i++) {
            positions.add(i);
        }
        admitEach(sql, queue, admission.cursors().get(queue), positions, group, answers, later);
        return Arrays.asList(answers);
    }

    /** Submissions of plain jobs for unbounded queues, all in one insert. */
    private List<Answer> insertMerged(Sql sql, List<List<NewJob>> group, Announcer.Announcements later) {
        List<NewJob> merged = new ArrayList<>();
        group.forEach(merged::addAll);
        Iterator<JobStore.Inserted> rows = admit(sql, merged, later).inserted().iterator();
        List<Answer> answers = new ArrayList<>(group.size());
        for (List<NewJob> jobs : group) {
            answers.add(new Answer(take(rows, jobs.size()), null));
        }
        return answers;
    }

    private static List<JobStore.Inserted> take(Iterator<JobStore.Inserted> rows, int n) {
        List<JobStore.Inserted> own = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            own.add(rows.next());
        }
        return own;
    }

    private List<Answer> placeAll(Sql sql, List<List<NewJob>> group, Announcer.Announcements later) {
        if (group.size() == 1) {
            return List.of(place(sql, group.get(0), later));
        }
        Answer[] answers = new Answer[group.size()];
        boolean[] merge = new boolean[group.size()];
        List<NewJob> merged = new ArrayList<>();
        Map<String, List<Integer>> singles = new TreeMap<>();
        for (int i = 0; i < merge.length; i++) {
            List<NewJob> jobs = group.get(i);
            merge[i] = mergeable(jobs);
            if (merge[i]) {
                merged.addAll(jobs);
            } else if (boundedSingle(jobs)) {
                singles.computeIfAbsent(jobs.get(0).queue(), q -> new ArrayList<>()).add(i);
            }
        }
        Iterator<JobStore.Inserted> rows = merged.isEmpty() ? null : admit(sql, merged, later).inserted().iterator();
        for (Map.Entry<String, List<Integer>> q : singles.entrySet()) {
            if (q.getValue().size() > 1) {
                admitEach(sql, q.getKey(), admission.cursors().get(q.getKey()), q.getValue(), group, answers, later);
            }
        }
        for (int i = 0; i < answers.length; i++) {
            List<NewJob> jobs = group.get(i);
            if (merge[i]) {
                answers[i] = new Answer(take(rows, jobs.size()), null);
            } else if (answers[i] == null) {
                answers[i] = place(sql, jobs, later);
            }
        }
        return List.of(answers);
    }

    /**
     * The group's single-job submissions to one bounded queue, admitted in one statement as far as its window has
     * room (ADR 0011, amendment "a group's single submissions"): each admitted one gets its answer here; the others
     * stay unanswered, to be placed one by one after (in the group's transaction, or alone by their callers when the
     * statement was the group's only one, ADR 0035), which widens the window or refuses.
     */
    private void admitEach(Sql sql, String queue, SlotCursor cursor, List<Integer> positions,
            List<List<NewJob>> group, Answer[] answers, Announcer.Announcements later) {
        List<NewJob> jobs = new ArrayList<>(positions.size());
        positions.forEach(i -> jobs.add(group.get(i).get(0)));
        List<JobStore.Inserted> inserted = AdmissionSlots.admitEach(sql, queue, jobs, cursor);
        if (inserted.isEmpty()) {
            return;
        }
        later.available(inserted.stream().filter(j -> j.state() == JobState.AVAILABLE).map(JobStore.Inserted::queue)
                .distinct().toList());
        later.submitted(jobs.subList(0, inserted.size()), inserted);
        for (int n = 0; n < inserted.size(); n++) {
            answers[positions.get(n)] = new Answer(List.of(inserted.get(n)), null);
        }
    }

    /** Plain jobs of unbounded queues only: admission cannot refuse them, so they can share a statement. */
    private boolean mergeable(List<NewJob> jobs) {
        for (NewJob j : jobs) {
            if (j.unique()) {
                return false;
            }
        }
        return AdmissionSlots.noneBounded(jobs, admission.bounds());
    }

    /**
     * Stores a submission with the statements of {@code sql}'s transaction, gathering in {@code later} what to
     * announce and record after the commit; a refusal is answered, not thrown. The plain jobs go through admission in
     * one statement (all or nothing), then each unique one with its insert-or-get (a duplicate answers the existing
     * job, also when it is an earlier job of the same list, which this transaction already sees). Unique jobs never go
     * to a bounded queue (validation refuses that).
     */
    private Answer place(Sql sql, List<NewJob> jobs, Announcer.Announcements later) {
        List<NewJob> plain = new ArrayList<>(jobs.size());
        for (NewJob j : jobs) {
            if (!j.unique()) {
                plain.add(j);
            }
        }
        List<JobStore.Inserted> plainRows = List.of();
        if (!plain.isEmpty()) {
            AdmissionSlots.Result result = admit(sql, plain, later);
            if (!result.admitted()) {
                return new Answer(null, admission.refusal(sql, result));
            }
            plainRows = result.inserted();
        }
        if (plain.size() == jobs.size()) {
            return new Answer(plainRows, null);
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
        later.available(ready);
        later.submitted(unique, uniqueRows);
        return new Answer(all, null);
    }

    private AdmissionSlots.Result admit(Sql sql, List<NewJob> jobs, Announcer.Announcements later) {
        AdmissionSlots.Result result = AdmissionSlots.insert(sql, jobs, admission.cursors());
        if (result.admitted()) {
            later.available(result.inserted().stream().filter(j -> j.state() == JobState.AVAILABLE)
                    .map(JobStore.Inserted::queue).distinct().toList());
            later.submitted(jobs, result.inserted());
        }
        return result;
    }

    @Override
    public Admission trySubmitJson(String kind, String argsJson, JobOptions options) {
        NewJob job = Submissions.validate(configuration.settings(), kind, Submissions.requireObject(argsJson), options,
                Instant.now());
        return admission(place(List.of(job)));
    }

    @Override
    public Admission trySubmitAll(List<? extends JobRequest<?>> requests) {
        return admission(place(validate(requests)));
    }

    private static Admission admission(Answer answer) {
        if (answer.refused() != null) {
            return answer.refused();
        }
        return new Admission.Admitted(answer.inserted().stream().map(JobStore.Inserted::id).toList());
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
