package dev.weir.dispatch;

/** Turns job arguments into JSON and back (JSON-B in the server). */
public interface ArgsCodec {

    String encode(Object args);

    <A> A decode(String json, Class<A> type);
}
