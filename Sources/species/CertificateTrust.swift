import Foundation
import URLSessionFixes

/// The certificates OpenSSL's and curl's tools would trust, handed to
/// libcurl, which reads no variable itself (docs/cli.md, "Global options
/// and environment"): a bundle in `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`,
/// read instead of the system's bundle; a folder in `SSL_CERT_DIR`, read
/// instead of the system's folder. Each goes with the other's default, as
/// in OpenSSL, so on Debian either adds to the system's CAs.
enum CertificateTrust {
    /// Hands the variables over.
    /// - Throws: a usage error when one cannot be used: it names something
    ///   that is neither a file nor a folder (a FIFO, which libcurl would
    ///   wait on, a device, a socket), or the one where the other belongs.
    ///   A path that does not exist is libcurl's to report.
    static func apply(environment: [String: String]) throws(CommandError) {
        func value(_ name: String) -> (name: String, path: String)? {
            environment[name].flatMap { $0.isEmpty ? nil : (name, $0) }
        }
        let file = value("CURL_CA_BUNDLE") ?? value("SSL_CERT_FILE"), folder = value("SSL_CERT_DIR")
        for (variable, wanted) in [(file, S_IFREG), (folder, S_IFDIR)] {
            guard let variable else { continue }
            var status = stat()
            guard stat(variable.path, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            guard kind != wanted else { continue }
            let kinds = [
                S_IFIFO: "a FIFO", S_IFCHR: "a device", S_IFBLK: "a device", S_IFSOCK: "a socket", S_IFDIR: "a folder",
                S_IFREG: "a file",
            ]
            throw CommandError(
                "\(variable.name) names \(variable.path), \(kinds[kind] ?? "no file"), not \(wanted == S_IFREG ? "a file" : "a folder") of certificates",
                .usage)
        }
        url_session_fixes_trust(file?.path, folder?.path)
    }
}
