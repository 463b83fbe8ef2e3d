import Foundation
import TestSupport

/// The test-only CA and server certificates of Tests/TLS
/// (`make_certificates.sh` there says what each is).
public enum TestCertificates {
    public static func url(_ name: String) -> URL {
        Fixtures.packageRoot.appendingPathComponent("Tests/TLS").appendingPathComponent(name)
    }

    /// The environment that makes species trust the test CA.
    public static var trusted: [String: String] {
        ["SSL_CERT_FILE": url("ca.pem").path]
    }
}

extension FixtureServer {
    /// One HTTPS server for the whole test run, with the certificate the
    /// test CA signed for 127.0.0.1.
    public static let sharedHTTPS = Task {
        try await FixtureServer.start(["--tls", TestCertificates.url("server.pem").path])
    }
}
