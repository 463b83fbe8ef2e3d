import Foundation

/// What `species` and its HTTP helper, `species-http`, say to each other
/// over a socket: one JSON line a message, and after a response's line, the
/// bytes of its body.
public enum HelperWire {
    /// From species: fetch a URL, or cancel an earlier fetch.
    public struct Command: Codable, Sendable, Equatable, FrameHeader {
        public var id: Int
        public var request: HTTPRequest?
        public var cancel: Bool?

        public static func fetch(_ request: HTTPRequest, id: Int) -> Command {
            Command(id: id, request: request, cancel: nil)
        }

        public static func cancel(_ id: Int) -> Command {
            Command(id: id, request: nil, cancel: true)
        }

        public var bodyLength: Int { 0 }
    }

    /// From the helper: the response to a fetch, or why there is none.
    public struct Reply: Codable, Sendable, Equatable, FrameHeader {
        public var id: Int
        public var status: Int?
        public var headers: [String: String]?
        public var bodyLength: Int
        public var failure: TransportError?

        public static func response(_ response: HTTPResponse, id: Int) -> Reply {
            Reply(id: id, status: response.status, headers: response.headers, bodyLength: response.body.count, failure: nil)
        }

        public static func failure(_ error: TransportError, id: Int) -> Reply {
            Reply(id: id, status: nil, headers: nil, bodyLength: 0, failure: error)
        }

        /// The response, with `body`, or the failure.
        public func result(body: Data) -> Result<HTTPResponse, TransportError> {
            if let failure { return .failure(failure) }
            return .success(HTTPResponse(status: status ?? 0, headers: headers ?? [:], body: body))
        }
    }

    /// A message as bytes: its JSON line, then `body`.
    public static func encode<Header: Encodable>(_ header: Header, body: Data = Data()) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        var frame = (try? encoder.encode(header)) ?? Data()
        frame.append(UInt8(ascii: "\n"))
        frame.append(body)
        return frame
    }
}

/// The first line of a message, which says how many body bytes follow it.
public protocol FrameHeader: Decodable {
    var bodyLength: Int { get }
}

/// Cuts a byte stream into messages, as the bytes come.
public struct FrameReader<Header: FrameHeader> {
    public enum Failure: Error, Equatable {
        case unreadableHeader(String)
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var header: Header?
    private let decoder = JSONDecoder()

    public init() {}

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or nil until more bytes arrive.
    public mutating func next() throws(Failure) -> (header: Header, body: Data)? {
        if header == nil {
            guard let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = Data(buffer[start..<newline])
            start = newline + 1
            do {
                header = try decoder.decode(Header.self, from: line)
            } catch {
                throw .unreadableHeader(String(decoding: line.prefix(200), as: UTF8.self))
            }
        }
        guard let current = header, buffer.count - start >= max(0, current.bodyLength) else { return nil }
        let end = start + max(0, current.bodyLength)
        let body = Data(buffer[start..<end])
        start = end
        header = nil
        return (current, body)
    }
}
