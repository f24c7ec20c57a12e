//! `--server` (and `SOLVER_SERVER`) against a separately started server.

use crate::eqnice;
use crate::server::Server;
use crate::util::{client, fixture, run, run_with, text};

#[test]
fn server_flag_anywhere_and_from_the_environment() {
    let server = Server::start();
    let url = server.url();
    let expected = String::from_utf8(fixture("hdu3567.out")).unwrap();
    let input = fixture("hdu3567.in");
    for args in [
        vec!["judge", "hdu3567", "--server", &url],
        vec!["--server", &url, "judge", "hdu3567"],
        vec!["judge", "--server", &url, "hdu3567"],
    ] {
        let output = run(&args, &input);
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{args:?}: {stderr}");
        eqnice!(expected, stdout);
    }
    // host:port without a scheme, from the environment.
    let mut command = client(&["judge", "hdu1401"]);
    command.env("SOLVER_SERVER", server.addr().to_string());
    let output = run_with(command, &fixture("hdu1401.in"));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    eqnice!(String::from_utf8(fixture("hdu1401.out")).unwrap(), stdout);
}

#[test]
fn bad_input_over_a_remote_server_still_answers_the_rest() {
    let server = Server::start();
    let url = server.url();
    let output = run(
        &["judge", "uva10181", "--server", &url],
        b"2\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n",
    );
    let (stdout, stderr) = text(&output);
    eqnice!("R\n", stdout);
    assert!(
        stderr.contains("uva10181: case 1, line 2: tile 99"),
        "{stderr}"
    );
    assert!(!output.status.success());
}

#[test]
fn an_unreachable_server_is_a_clear_error() {
    // Bind and drop a listener to find a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let output = run(
        &["judge", "hdu1043", "--server", &url],
        &fixture("hdu1043.in"),
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(3), "not reached: exit code 3");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(&format!("connecting to the solver server at {url}")),
        "{stderr}"
    );
}
