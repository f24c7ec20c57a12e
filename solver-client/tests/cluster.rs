//! Several servers: a run spreads over all of them, and survives one dying mid-run with every
//! answer printed exactly once and in order.

use std::io::{BufRead as _, BufReader, Read as _};

use crate::eqnice;
use crate::random::{Draws as _, Lcg};
use crate::server::Server;
use crate::util::{Running, client, run, text};

/// `cases` random Solitaire cases (HDU 1401 format), both reachable and not.
fn solitaire_input(cases: usize) -> String {
    let mut rng = Lcg::new(0x2545_f491_4f6c_dd1d);
    let mut input = String::new();
    for case in 0..cases {
        let start: Vec<usize> = rng.distinct(4, 64);
        // Every third end is the start shifted a little (often reachable), the rest random.
        let end: Vec<usize> = if case % 3 == 0 {
            // The start with its piece number `start[0] % 4` moved one square on, when free.
            let mut squares = start.clone();
            let i = start[0] % 4;
            let moved = (squares[i] + 1) % 64;
            if !squares.contains(&moved) {
                squares[i] = moved;
            }
            squares
        } else {
            rng.distinct(4, 64)
        };
        for squares in [&start, &end] {
            let line: Vec<String> = squares
                .iter()
                .map(|s| format!("{} {}", s / 8 + 1, s % 8 + 1))
                .collect();
            input.push_str(&line.join(" "));
            input.push('\n');
        }
    }
    input
}

#[test]
fn a_run_survives_a_server_dying_mid_run() {
    const CASES: usize = 6_000;
    let input = solitaire_input(CASES);
    // The reference: the same input through the embedded server alone.
    let reference = run(&["judge", "hdu1401"], input.as_bytes());
    let (expected, stderr) = text(&reference);
    assert!(reference.status.success(), "{stderr}");
    assert_eq!(expected.lines().count(), CASES);
    assert!(expected.contains("YES") && expected.contains("NO"));

    let mut servers = [Server::start(), Server::start(), Server::start()];
    let list = servers
        .iter()
        .map(|s| s.addr().to_string())
        .collect::<Vec<_>>()
        .join(",");
    let mut running = Running::start(
        client(&["judge", "hdu1401", "--server", &list]),
        input.as_bytes(),
    );
    let mut stdout = BufReader::new(running.child.stdout.take().unwrap());
    // The first answers reach stdout while the run is still busy (output is flushed when the
    // client waits): kill one server now, with cases in flight on it.
    let mut got = String::new();
    stdout.read_line(&mut got).unwrap();
    servers[1].kill();
    assert!(
        running.child.try_wait().unwrap().is_none(),
        "the run ended before the kill"
    );
    stdout.read_to_string(&mut got).unwrap();
    let (status, stderr) = running.finish();
    assert!(status.success(), "{status}: {stderr}");
    assert!(
        stderr.contains(&format!("http://{}", servers[1].addr()))
            && stderr.contains("unanswered case(s) to the other servers"),
        "{stderr}"
    );
    // One message for the one failure, and the failed server had taken cases of its own.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let handed_back: usize = stderr
        .split("sending its ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(handed_back > 0, "{stderr}");
    eqnice!(expected, got);
    // The survivors each answered a share of the run.
    for survivor in [&servers[0], &servers[2]] {
        let answered = survivor.cases_answered("solitaire");
        assert!(answered > 0 && answered < CASES as u64, "{answered}");
    }
}

#[test]
fn a_list_with_a_dead_server_uses_the_others() {
    let server = Server::start();
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let list = format!("{dead},{}", server.addr());
    let output = run(
        &["judge", "hdu1401", "--server", &list],
        b"4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    eqnice!("YES\n", stdout);
    assert!(stderr.contains(&format!("connecting to the solver server at http://{dead}")));
}
