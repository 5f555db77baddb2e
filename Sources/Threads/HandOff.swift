/// A value that one thread builds and then shares, only read from then on: its builder writes
/// `value` until it hands the object that holds it over (through a lock, a thread's start or a
/// mailbox, which order those writes before any read), and nobody writes after that. Swift
/// cannot check the rule, so it lives here with Threads' other unchecked parts; each holder
/// says where its writes end (`PackedArena`: its builder, until `finish()`).
public final class HandOff<Value>: @unchecked Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}
