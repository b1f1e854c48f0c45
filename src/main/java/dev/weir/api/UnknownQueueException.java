package dev.weir.api;

/** A submission named a queue that is not in {@code weir.queues}. Nothing was written. */
public class UnknownQueueException extends InvalidJobException {

    private static final long serialVersionUID = 1L;

    private final String queue;

    public UnknownQueueException(String queue) {
        super("unknown_queue", "queue '" + queue + "' is not configured (see weir.queues)");
        this.queue = queue;
    }

    public String queue() {
        return queue;
    }
}
