package dev.weir.admin;

/**
 * The three roles of DESIGN §5. A viewer reads; a submitter submits jobs (and reads); an admin does everything.
 * Every {@code /api/*} resource method names the roles it admits with {@code @RolesAllowed}.
 */
public final class Roles {

    /** Reads jobs, queues, periodic jobs and statistics. */
    public static final String VIEWER = "weir-viewer";

    /** Submits jobs (and reads, to follow what it submitted). */
    public static final String SUBMITTER = "weir-submitter";

    /** Everything: the viewer's and the submitter's calls, and every operator action. */
    public static final String ADMIN = "weir-admin";

    private Roles() {
    }
}
