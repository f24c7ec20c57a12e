//! TLS end to end: the binary against an in-process server with certificates made here (rcgen).
//! `https://` with a private CA, mutual TLS, `--tls-domain`, and the mismatches (`https://` to a
//! plaintext server, `http://` to a TLS one, an untrusted certificate) each failing clearly with
//! exit code 3.

use std::path::{Path, PathBuf};

use solver_test_support::tls::Ca;

use crate::server::Server;
use crate::util::{run, text};

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("client-tls")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A TLS server whose certificate (for `names`) is signed by `ca`; with `client_ca`, mutual TLS.
fn tls_server(dir: &Path, ca: &Ca, names: &[&str], client_ca: Option<&Ca>) -> Server {
    ca.sign_into(names, &dir.join("server.pem"), &dir.join("server.key"));
    if let Some(client_ca) = client_ca {
        client_ca.write(&dir.join("client-ca.pem"));
    }
    let dir = dir.to_owned();
    Server::start_with(move |config| {
        config.tls.cert = Some(dir.join("server.pem"));
        config.tls.key = Some(dir.join("server.key"));
        config.tls.client_ca = client_ca.map(|_| dir.join("client-ca.pem"));
    })
}

fn path(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `solve eight` of a one-move board with `args`: (exit code, stdout, stderr).
fn solve(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["solve", "eight", "1 2 3 4 5 6 7 x 8"];
    all.extend_from_slice(args);
    let output = run(&all, b"");
    let (stdout, stderr) = text(&output);
    (output.status.code().unwrap_or(-1), stdout, stderr)
}

#[test]
fn https_with_a_private_ca_is_answered() {
    let dir = dir("private-ca");
    let ca = Ca::new("client test CA");
    ca.write(&dir.join("ca.pem"));
    let server = tls_server(&dir, &ca, &["localhost", "127.0.0.1"], None);
    let port = server.addr().port();
    // By name (its addresses are used, the name is checked) and by address.
    for url in [
        format!("https://localhost:{port}"),
        format!("https://127.0.0.1:{port}"),
    ] {
        let (code, stdout, stderr) =
            solve(&["--server", &url, "--tls-ca", path(&dir.join("ca.pem"))]);
        assert_eq!(
            (code, stdout.as_str()),
            (0, "1 move: r\n"),
            "{url}: {stderr}"
        );
    }
    // Judge mode over TLS too.
    let output = run(
        &[
            "judge",
            "hdu1043",
            "--server",
            &format!("https://localhost:{port}"),
            "--tls-ca",
            path(&dir.join("ca.pem")),
        ],
        b"1 2 3 4 5 6 7 x 8\n",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(stdout, "r\n");
}

#[test]
fn tls_domain_names_the_certificate_to_expect() {
    let dir = dir("domain");
    let ca = Ca::new("client test CA");
    ca.write(&dir.join("ca.pem"));
    let server = tls_server(&dir, &ca, &["solver.internal"], None);
    let url = format!("https://{}", server.addr());
    let ca_file = dir.join("ca.pem");
    let (code, _, stderr) = solve(&["--server", &url, "--tls-ca", path(&ca_file)]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("the TLS handshake failed"), "{stderr}");
    let (code, stdout, stderr) = solve(&[
        "--server",
        &url,
        "--tls-ca",
        path(&ca_file),
        "--tls-domain",
        "solver.internal",
    ]);
    assert_eq!((code, stdout.as_str()), (0, "1 move: r\n"), "{stderr}");
}

#[test]
fn mutual_tls_sends_the_client_certificate() {
    let dir = dir("mutual");
    let ca = Ca::new("server CA");
    let clients = Ca::new("client CA");
    ca.write(&dir.join("ca.pem"));
    clients.sign_into(
        &["client"],
        &dir.join("client.pem"),
        &dir.join("client.key"),
    );
    let server = tls_server(&dir, &ca, &["localhost"], Some(&clients));
    let url = format!("https://localhost:{}", server.addr().port());
    let ca_file = dir.join("ca.pem");

    let (code, stdout, stderr) = solve(&[
        "--server",
        &url,
        "--tls-ca",
        path(&ca_file),
        "--tls-cert",
        path(&dir.join("client.pem")),
        "--tls-key",
        path(&dir.join("client.key")),
    ]);
    assert_eq!((code, stdout.as_str()), (0, "1 move: r\n"), "{stderr}");

    // Without a certificate the server refuses us: exit code 3, the address named.
    let (code, stdout, stderr) = solve(&["--server", &url, "--tls-ca", path(&ca_file)]);
    assert_eq!((code, stdout.as_str()), (3, ""), "{stderr}");
    assert!(stderr.contains(&server.addr().to_string()), "{stderr}");
    assert!(stderr.contains("client certificate"), "{stderr}");

    // A key without its certificate is a usage error.
    let (code, _, stderr) = solve(&["--server", &url, "--tls-key", path(&dir.join("client.key"))]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn https_to_a_plaintext_server_fails_clearly() {
    let server = Server::start();
    let url = format!("https://{}", server.addr());
    let (code, stdout, stderr) = solve(&["--server", &url]);
    assert_eq!((code, stdout.as_str()), (3, ""), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "connecting to the solver server at {url}: the TLS handshake failed"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("does not speak TLS needs http://"),
        "{stderr}"
    );
}

#[test]
fn http_to_a_tls_server_fails_clearly() {
    let dir = dir("plaintext-client");
    let ca = Ca::new("client test CA");
    let server = tls_server(&dir, &ca, &["localhost"], None);
    let url = format!("http://{}", server.addr());
    let (code, stdout, stderr) = solve(&["--server", &url]);
    assert_eq!((code, stdout.as_str()), (3, ""), "{stderr}");
    assert!(stderr.contains(&url), "{stderr}");
    assert!(
        stderr.contains("does the server speak TLS? then use https://"),
        "{stderr}"
    );
    // A single call says the same.
    let output = run(&["hint", "12345678x", "--server", &url], b"");
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the connection to the solver server at {url} failed"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("does the server speak TLS? then use https://"),
        "{stderr}"
    );
}

#[test]
fn an_untrusted_certificate_fails_clearly() {
    let dir = dir("untrusted");
    let ca = Ca::new("client test CA");
    let server = tls_server(&dir, &ca, &["localhost"], None);
    let url = format!("https://localhost:{}", server.addr().port());
    // The public web CAs do not know the tests' CA.
    let (code, _, stderr) = solve(&["--server", &url]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("the TLS handshake failed"), "{stderr}");
    assert!(stderr.contains("--tls-ca"), "{stderr}");
    // A --tls-ca that is no certificate is named.
    std::fs::write(dir.join("junk.pem"), "junk\n").unwrap();
    let (code, _, stderr) = solve(&["--server", &url, "--tls-ca", path(&dir.join("junk.pem"))]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "--tls-ca {}: no certificate",
            dir.join("junk.pem").display()
        )),
        "{stderr}"
    );
    // TLS flags without an https:// server.
    let (code, _, stderr) = solve(&["--tls-domain", "localhost"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("--tls-domain applies to https:// servers only"),
        "{stderr}"
    );
}
