package dev.weir.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the shipped {@code server-config/server.xml} declares, read as text by tests that hold code and docs to it. */
public final class ServerXml {

    /** A variable with its default: {@code <variable name="WEIR_X" defaultValue="…"/>}. */
    private static final Pattern VARIABLE = Pattern.compile("<variable name=\"([A-Z_]+)\" defaultValue=\"([^\"]*)\"");

    private ServerXml() {
    }

    /** The file's text. */
    public static String text() throws IOException {
        return Files.readString(Path.of("server-config", "server.xml"));
    }

    /** Every variable the file declares, by name, with its default. */
    public static Map<String, String> variables() throws IOException {
        Map<String, String> declared = new TreeMap<>();
        Matcher v = VARIABLE.matcher(text());
        while (v.find()) {
            declared.put(v.group(1), v.group(2));
        }
        return declared;
    }

    /**
     * The {@code options} the data source {@code id} opens its sessions with, each {@code ${VARIABLE}} replaced by its
     * default.
     */
    public static String dataSourceOptions(String id) throws IOException {
        Matcher m = Pattern.compile("<dataSource id=\"" + Pattern.quote(id) + "\".*?options=\"([^\"]*)\"",
                Pattern.DOTALL).matcher(text());
        if (!m.find()) {
            throw new IllegalStateException("server.xml has no data source " + id + " with options");
        }
        String options = m.group(1);
        for (Map.Entry<String, String> v : variables().entrySet()) {
            options = options.replace("${" + v.getKey() + "}", v.getValue());
        }
        return options;
    }
}
