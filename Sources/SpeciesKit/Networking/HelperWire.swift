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

    /// From the helper, about a fetch: its status and headers, then each
    /// piece of its body as it arrives, then its end; or why it failed.
    public struct Reply: Codable, Sendable, Equatable, FrameHeader {
        public enum Event: Codable, Sendable, Equatable {
            case head(status: Int, headers: [String: String])
            /// `bodyLength` bytes of the body follow the line.
            case data
            case end
            case failure(TransportError)
        }

        public var id: Int
        public var event: Event
        public var bodyLength: Int

        public init(id: Int, event: Event, bodyLength: Int = 0) {
            self.id = id
            self.event = event
            self.bodyLength = bodyLength
        }
    }

    /// A message's first line: its JSON, then a newline. Its body, if any,
    /// follows as it is.
    public static func encode<Header: Encodable>(_ header: Header) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        var line = (try? encoder.encode(header)) ?? Data()
        line.append(UInt8(ascii: "\n"))
        return line
    }
}

/// The first line of a message, which says how many body bytes follow it.
public protocol FrameHeader: Decodable {
    var bodyLength: Int { get }
}

/// Cuts a byte stream into messages, as the bytes come. A body goes straight
/// into storage of its announced size, without growing or copying.
public struct FrameReader<Header: FrameHeader> {
    public enum Failure: Error, Equatable {
        case unreadableHeader(String)
    }

    private var lines: [UInt8] = []
    private var header: Header?
    private var body = Data()
    private let decoder = JSONDecoder()

    public init() {}

    /// Takes in `bytes`, and returns the messages they complete.
    public mutating func read(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> [(header: Header, body: Data)] {
        var messages: [(header: Header, body: Data)] = []
        var rest = bytes[...]
        while true {
            if let current = header {
                let wanted = max(0, current.bodyLength - body.count)
                let taken = rest.prefix(wanted)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: taken))
                rest = rest.dropFirst(taken.count)
                guard body.count >= current.bodyLength else { return messages }
                messages.append((current, body))
                header = nil
                body = Data()
            }
            guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
                lines.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest))
                return messages
            }
            lines.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<newline]))
            rest = rest[rest.index(after: newline)...]
            do {
                header = try decoder.decode(Header.self, from: Data(lines))
            } catch {
                throw .unreadableHeader(String(decoding: lines.prefix(200), as: UTF8.self))
            }
            lines.removeAll(keepingCapacity: true)
            body.reserveCapacity(max(0, header?.bodyLength ?? 0))
        }
    }
}
