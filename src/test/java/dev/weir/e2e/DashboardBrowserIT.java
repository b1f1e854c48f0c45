package dev.weir.e2e;

import static dev.weir.e2e.Server.awaitState;
import static dev.weir.e2e.Server.post;
import static dev.weir.e2e.Server.submit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard (src/main/webapp/dashboard) in a real headless Chromium against the running server: log-in, queue
 * counts that follow submitted jobs, pause and resume, retry of a discarded job, and what a viewer may not do.
 * <p>
 * Uses the system's Chromium and chromedriver (Debian's {@code chromium} and {@code chromium-driver} packages; other
 * paths through the environment variables {@code WEIR_IT_CHROMIUM} and {@code WEIR_IT_CHROMEDRIVER}). Without them
 * the test is skipped, unless {@code CI=true}, where it fails. Screenshots go to {@code target/screenshots/}.
 */
class DashboardBrowserIT {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String QUEUE = "default";

    private static String chromium;
    private static String chromedriver;

    private WebDriver driver;
    private Path profile;

    @BeforeAll
    static void findTheBrowser() throws IOException {
        chromium = executable("WEIR_IT_CHROMIUM", "/usr/bin/chromium");
        chromedriver = executable("WEIR_IT_CHROMEDRIVER", "/usr/bin/chromedriver");
        if (chromium == null || chromedriver == null) {
            String why = "the dashboard's browser test needs Chromium and chromedriver (Debian: apt-get install chromium "
                    + "chromium-driver; or set WEIR_IT_CHROMIUM and WEIR_IT_CHROMEDRIVER); found chromium="
                    + chromium + ", chromedriver=" + chromedriver;
            if ("true".equals(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort("skipped: " + why);
        }
        // The driver is given explicitly, so Selenium Manager has nothing to find and must never download anything.
        System.setProperty("webdriver.chrome.driver", chromedriver);
        Files.createDirectories(SCREENSHOTS);
    }

    private static String executable(String variable, String standard) {
        String configured = System.getenv(variable);
        String path = configured == null || configured.isBlank() ? standard : configured;
        return new File(path).canExecute() ? path : null;
    }

    @BeforeEach
    void startTheBrowser() throws IOException {
        profile = Files.createTempDirectory("weir-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1440,1100", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(chromedriver))
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
    }

    @AfterEach
    void stopTheBrowser() throws IOException {
        if (driver != null) {
            driver.quit();
        }
        deleteTree(profile);
    }

    @AfterAll
    static void resumeTheQueue() {
        // A test that failed half-way must not leave the shared queue paused for the tests after it.
        if (chromium != null && chromedriver != null) {
            post("/api/queues/" + QUEUE + "/resume", "");
        }
    }

    @Test
    void theRootLeadsToTheLogInFormOfTheDashboard() {
        driver.get(Server.BASE + "/");
        waitUntil(d -> d.getCurrentUrl().endsWith("/dashboard/"));
        waitUntil(d -> d.findElement(By.id("login-user")).isDisplayed());
        assertFalse(driver.findElement(By.id("app-view")).isDisplayed(), "nothing but the log-in form before a log-in");
        assertTrue(driver.findElements(By.cssSelector("article[data-queue]")).isEmpty(), "the shell holds no data");
        screenshot("login");
    }

    @Test
    void aWrongPasswordStaysAtTheLogIn() {
        Assumptions.assumeTrue(securityIsOn(), "the server has no security yet (GET /api/me answers 404)");
        signIn("admin", "not-the-password");
        waitUntil(d -> text(By.id("login-message")).contains("not accepted"));
        assertFalse(driver.findElement(By.id("app-view")).isDisplayed());
        assertEquals(null, sessionStorage("weir.auth"), "refused credentials are not kept");
    }

    @Test
    void anAdminSeesCountsChangeAndPausesAndResumesAQueue() {
        post("/api/queues/" + QUEUE + "/resume", "");
        signInAndWait(TestUser.ADMIN.name, TestUser.ADMIN.password);
        waitUntil(d -> text(By.id("who-role")).equals(securityIsOn() ? "admin" : "no security on this server"));
        By card = By.cssSelector("article[data-queue='" + QUEUE + "']");
        waitUntil(d -> d.findElement(card).isDisplayed());
        screenshot("overview");

        click(By.cssSelector("article[data-queue='" + QUEUE + "'] button[data-action='pause']"));
        waitUntil(d -> "true".equals(d.findElement(card).getAttribute("data-paused")));
        assertTrue(driver.findElement(By.cssSelector("article[data-queue='" + QUEUE + "'] .paused-badge"))
                .isDisplayed());
        assertTrue(Server.get("/api/queues/" + QUEUE).json().getBoolean("paused"), "the server knows it is paused");

        long available = count(QUEUE, "available");
        long completed = count(QUEUE, "completed");
        List<Long> ids = List.of(submit(noop()), submit(noop()), submit(noop()));
        waitUntil(d -> count(QUEUE, "available") >= available + 3);
        screenshot("paused-queue");
        for (long id : ids) {
            assertEquals("available", Server.job(id).getString("state"), "a paused queue runs nothing");
        }

        click(By.cssSelector("article[data-queue='" + QUEUE + "'] button[data-action='resume']"));
        waitUntil(d -> "false".equals(d.findElement(card).getAttribute("data-paused")));
        assertFalse(driver.findElement(By.cssSelector("article[data-queue='" + QUEUE + "'] .paused-badge"))
                .isDisplayed());
        for (long id : ids) {
            awaitState(id, "completed");
        }
        waitUntil(d -> count(QUEUE, "completed") >= completed + 3);
        if (exists("/api/stats/throughput")) {
            waitUntil(d -> !d.findElements(By.cssSelector("#chart rect.completed")).isEmpty());
        }
        screenshot("resumed-queue");

        driver.findElement(By.id("logout")).click();
        waitUntil(d -> d.findElement(By.id("login-view")).isDisplayed());
        assertFalse(driver.findElement(By.id("app-view")).isDisplayed());
        assertEquals(null, sessionStorage("weir.auth"), "log-out forgets the credentials");
        assertTrue(driver.findElements(By.cssSelector("article[data-queue]")).isEmpty(), "no data stays on the page");
    }

    @Test
    void anAdminRetriesADiscardedJobAndSeesItRun() {
        Assumptions.assumeTrue(exists("/api/jobs?limit=1"), "the server has no job list yet (GET /api/jobs)");
        // Fails its first attempt, which is its last: discarded. A retry grants one more attempt, which completes.
        long id = submit("{\"kind\": \"weir.fail\", \"queue\": \"" + QUEUE + "\", \"args\": {\"times\": 1},"
                + " \"maxAttempts\": 1}");
        awaitState(id, "discarded");

        signInAndWait(TestUser.ADMIN.name, TestUser.ADMIN.password);
        new Select(driver.findElement(By.id("filter-state"))).selectByVisibleText("discarded");
        WebElement kind = driver.findElement(By.id("filter-kind"));
        kind.sendKeys("weir.fail", Keys.ENTER);
        By row = By.cssSelector("#jobs tr[data-job-id='" + id + "']");
        click(row);
        By detail = By.id("detail-body");
        waitUntil(d -> String.valueOf(id).equals(d.findElement(detail).getAttribute("data-job-id"))
                && "discarded".equals(d.findElement(detail).getAttribute("data-state")));
        assertEquals(1, driver.findElements(By.cssSelector("#detail-errors li")).size());
        assertTrue(text(By.id("detail-errors")).contains("failing attempt 1"), text(By.id("detail-errors")));
        screenshot("discarded-job");

        WebElement retry = driver.findElement(By.id("action-retry"));
        assertTrue(retry.isDisplayed() && retry.isEnabled(), "an admin may retry a discarded job");
        assertFalse(driver.findElement(By.id("action-discard")).isEnabled(), "a discarded job cannot be discarded");
        retry.click();
        waitUntil(d -> "completed".equals(d.findElement(detail).getAttribute("data-state")));
        screenshot("retried-job");

        JsonObject job = Server.job(id);
        assertEquals("completed", job.getString("state"));
        assertEquals(2, job.getInt("attempt"));
        assertEquals(1, job.getJsonArray("errors").size(), "the retry keeps the error history");
        assertTrue(text(By.cssSelector("#detail-fields dd[data-field='attempt']")).startsWith("2 of"));
    }

    @Test
    void aViewerGetsNoAdminActionsAndAForbiddenActionSaysSo() {
        Assumptions.assumeTrue(securityIsOn(), "the server has no security yet (GET /api/me answers 404)");
        post("/api/queues/" + QUEUE + "/resume", "");
        signInAndWait(TestUser.VIEWER.name, TestUser.VIEWER.password);
        waitUntil(d -> text(By.id("who-role")).equals("viewer"));
        By pause = By.cssSelector("article[data-queue='" + QUEUE + "'] button[data-action]");
        waitUntil(d -> !d.findElements(pause).isEmpty());
        assertFalse(driver.findElement(pause).isDisplayed(), "a viewer sees no pause button");
        assertFalse(driver.findElement(By.id("bulk-retry")).isDisplayed(), "a viewer sees no bulk retry");
        if (exists("/api/jobs?limit=1")) {
            long id = submit(noop());
            awaitState(id, "completed");
            By row = By.cssSelector("#jobs tr[data-job-id='" + id + "']");
            click(row);
            waitUntil(d -> String.valueOf(id).equals(d.findElement(By.id("detail-body")).getAttribute("data-job-id")));
            assertFalse(driver.findElement(By.id("action-retry")).isDisplayed(), "a viewer sees no job actions");
        }
        screenshot("viewer");

        // Were the button there (a stale page, a crafted one), the server refuses and the page says why.
        ((JavascriptExecutor) driver).executeScript("document.body.classList.add('is-admin')");
        click(pause);
        waitUntil(d -> d.findElement(By.id("banner")).isDisplayed());
        assertEquals("forbidden", driver.findElement(By.id("banner")).getAttribute("data-code"));
        assertTrue(text(By.id("banner-text")).contains("role may not do this"), text(By.id("banner-text")));
        assertFalse(Server.get("/api/queues/" + QUEUE).json().getBoolean("paused"), "the refused pause changed nothing");
        screenshot("viewer-forbidden");
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static String noop() {
        return "{\"kind\": \"weir.noop\", \"queue\": \"" + QUEUE + "\"}";
    }

    private static boolean securityIsOn() {
        return exists("/api/me");
    }

    /** Whether the server has this call: a server without it answers 404 or 405; any other answer is its own. */
    private static boolean exists(String path) {
        int status = Server.get(path).status();
        return status != 404 && status != 405;
    }

    private void signIn(String user, String password) {
        driver.get(Server.BASE + "/dashboard/");
        waitUntil(d -> d.findElement(By.id("login-user")).isDisplayed());
        WebElement name = driver.findElement(By.id("login-user"));
        name.clear();
        name.sendKeys(user);
        driver.findElement(By.id("login-password")).sendKeys(password);
        driver.findElement(By.id("login-submit")).click();
    }

    private void signInAndWait(String user, String password) {
        signIn(user, password);
        waitUntil(d -> d.findElement(By.id("app-view")).isDisplayed());
        waitUntil(d -> !d.findElements(By.cssSelector("article[data-queue]")).isEmpty());
    }

    /** The count of a state the page shows on a queue's card. */
    private long count(String queue, String state) {
        String shown = text(By.cssSelector("article[data-queue='" + queue + "'] .count[data-state='" + state
                + "'] b"));
        return Long.parseLong(shown.replaceAll("[^0-9]", ""));
    }

    private String text(By by) {
        return driver.findElement(by).getText();
    }

    private Object sessionStorage(String key) {
        return ((JavascriptExecutor) driver).executeScript("return sessionStorage.getItem(arguments[0])", key);
    }

    /**
     * Clicks the element once it is there. The page draws its queues and jobs again on every refresh, so an element
     * found a moment ago may be gone: find and click in one try, and try again if it was replaced in between (a
     * click on a replaced element does not happen).
     */
    private void click(By element) {
        waitUntil(d -> {
            d.findElement(element).click();
            return true;
        });
    }

    private void waitUntil(Function<WebDriver, Boolean> condition) {
        new WebDriverWait(driver, PATIENCE).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .ignoring(NumberFormatException.class).until(condition::apply);
    }

    private void screenshot(String name) {
        try {
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("cannot save the screenshot " + name, e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
