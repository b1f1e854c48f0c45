package dev.weir.dispatch;

import dev.weir.api.JobHandler;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The handler of each job kind. Built once at start-up; two handlers for one kind is a deployment error. */
public final class HandlerRegistry {

    private final Map<String, JobHandler<?>> byKind;

    public HandlerRegistry(Collection<? extends JobHandler<?>> handlers) {
        Map<String, JobHandler<?>> map = new TreeMap<>();
        for (JobHandler<?> handler : handlers) {
            String kind = handler.kind().name();
            JobHandler<?> previous = map.put(kind, handler);
            if (previous != null) {
                throw new IllegalStateException("DUPLICATE_HANDLER: job kind '" + kind + "' has two handlers: "
                        + previous.getClass().getName() + " and " + handler.getClass().getName());
            }
        }
        this.byKind = Map.copyOf(map);
    }

    public Optional<JobHandler<?>> find(String kind) {
        return Optional.ofNullable(byKind.get(kind));
    }

    public java.util.Set<String> kinds() {
        return new java.util.TreeSet<>(byKind.keySet());
    }
}
