/// A session of its own on a test server (`Tests/Tools/swapi_server.py`):
/// API roots under it that speak a dialect, misbehave in one way or answer
/// late, and the requests each has seen. A test makes its own, so that it
/// counts only its own requests.
public struct ServerSession: Sendable {
    public let name = FixtureServer.newSession()
    private let server: Task<FixtureServer, any Error>

    public init(on server: Task<FixtureServer, any Error> = FixtureServer.shared) {
        self.server = server
    }

    /// `http://127.0.0.1:PORT/<session>/[fault=F/][faulty=N/][sound=N/][delay=MS/][gate=N/][dialect=D/]api/`;
    /// `dialect` drf is the server's own; `faulty`, the requests the fault
    /// spoils before the service is healthy; `sound`, the requests answered
    /// before the fault begins.
    public func root(
        fault: String? = nil, faulty: Int? = nil, sound: Int? = nil, delay: Int? = nil, gate: Int? = nil,
        dialect: String? = nil
    ) async throws -> String {
        try await server.value.root(
            session: path(fault: fault, faulty: faulty, sound: sound, delay: delay, gate: gate),
            dialect: dialect == "drf" ? nil : dialect)
    }

    /// The paths requested under that root so far, in order; with
    /// `agents`, the `User-Agent` of each; with `sent`, "PATH BYTES" for
    /// each flood of `fault=flood-beside` that ended.
    public func requests(
        fault: String? = nil, faulty: Int? = nil, sound: Int? = nil, delay: Int? = nil, gate: Int? = nil,
        dialect: String? = nil, atLeast count: Int = 0, agents: Bool = false, sent: Bool = false
    ) async throws -> [String] {
        let dialect = dialect == "drf" ? nil : dialect
        return try await server.value.requests(
            session: path(fault: fault, faulty: faulty, sound: sound, delay: delay, gate: gate)
                + (dialect.map { "/dialect=\($0)" } ?? ""),
            atLeast: count, agents: agents, sent: sent)
    }

    private func path(fault: String?, faulty: Int?, sound: Int?, delay: Int?, gate: Int?) -> String {
        name + (fault.map { "/fault=\($0)" } ?? "") + (faulty.map { "/faulty=\($0)" } ?? "")
            + (sound.map { "/sound=\($0)" } ?? "") + (delay.map { "/delay=\($0)" } ?? "")
            + (gate.map { "/gate=\($0)" } ?? "")
    }
}
