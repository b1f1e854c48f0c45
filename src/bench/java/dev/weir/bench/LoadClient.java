package dev.weir.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One benchmark client: the same HTTP/1.1 request, sent again and again on one kept-alive connection, each answer's
 * status checked and its body skipped. The load runs on the machine that also runs the server and PostgreSQL, so
 * the client must cost next to nothing: {@code java.net.http.HttpClient}, with its own threads and the answer read
 * into a string, took about a core of the two to send 900 single submissions a second, about as much as the
 * server's whole request path (ADR 0015). The request bytes are built once; a call writes them and reads the answer.
 * Not thread-safe: one per load thread.
 */
final class LoadClient implements AutoCloseable {

    private final byte[] request;
    private final String what;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final StringBuilder line = new StringBuilder();

    /** A client that will {@code POST} {@code body} (JSON) to {@code url}, or {@code GET} it when body is null. */
    LoadClient(URI url, String authorization, String body) throws IOException {
        this.what = (body == null ? "GET " : "POST ") + url.getPath();
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder()
                .append(what).append(" HTTP/1.1\r\n")
                .append("Host: ").append(url.getHost()).append(':').append(url.getPort()).append("\r\n")
                .append("Authorization: ").append(authorization).append("\r\n");
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head.toString().getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(content);
        this.request = bytes.toByteArray();
        this.socket = new Socket(url.getHost(), url.getPort());
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(60_000);
        this.out = socket.getOutputStream();
        this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** Sends the request once; fails with the answer's status and body unless the status is {@code expected}. */
    void call(int expected) throws IOException {
        out.write(request);
        out.flush();
        String status = readLine();
        if (status.length() < 12 || !status.startsWith("HTTP/1.1 ")) {
            throw new IOException(what + ": not an HTTP/1.1 answer: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = 0;
        boolean chunked = false;
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding") && value.equalsIgnoreCase("chunked")) {
                chunked = true;
            }
        }
        ByteArrayOutputStream body = code == expected ? null : new ByteArrayOutputStream();
        if (chunked) {
            for (int size = chunkSize(); size > 0; size = chunkSize()) {
                body(size, body);
                readLine();
            }
            while (!readLine().isEmpty()) {
                // trailers
            }
        } else {
            body(length, body);
        }
        if (body != null) {
            throw new IOException(what + " answered " + code + ": " + body.toString(StandardCharsets.UTF_8));
        }
    }

    private int chunkSize() throws IOException {
        String size = readLine();
        int semicolon = size.indexOf(';');
        return Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
    }

    /** Reads {@code n} bytes of body, keeping them only when {@code into} is given (an answer that failed). */
    private void body(long n, ByteArrayOutputStream into) throws IOException {
        for (long left = n; left > 0; left--) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException(what + ": the connection closed inside an answer");
            }
            if (into != null) {
                into.write(b);
            }
        }
    }

    private String readLine() throws IOException {
        line.setLength(0);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException(what + ": the connection closed");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
