//! The command-line conventions, through the binary: exit codes (documented in `--help`), shell
//! completions (tried in a real bash), the man pages, and what `--token`, `--gzip` and `--timeout`
//! put on the wire.

use solver_test_support::completion;

use crate::fake::Fake;
use crate::server::Server;
use crate::util::{call, client, fixture, run, run_with, text};

/// The 80-move 15-puzzle board: far more than a second of search with any database set here.
const HARD: &str = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";

#[test]
fn exit_codes_are_distinct_and_documented() {
    let output = run(&["--help"], b"");
    let (stdout, _) = text(&output);
    assert!(output.status.success());
    assert!(
        stdout.contains(
            "Exit status: 0 every case answered; 1 some case had an error (bad input, or a case \
             the service could not answer); 2 usage error; 3 the service could not be reached or \
             refused us"
        ),
        "{stdout}"
    );
    // 0: every case answered.
    let output = run(&["solve", "eight", "1 2 3 4 5 6 7 x 8"], b"");
    assert_eq!(output.status.code(), Some(0));
    // 1: a case with an error, the others answered.
    let output = run(
        &["solve", "eight", "1 2 3 4 5 6 7 x 8", "1 2 3 4 5 6 7 8 8"],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stdout, "case 1: 1 move: r\n");
    // 2: usage.
    let output = run(&["solve", "eight", "--no-such-flag"], b"");
    assert_eq!(output.status.code(), Some(2));
    let output = run(&["--timeout", "soon", "solve", "eight", "12345678x"], b"");
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--timeout"), "{stderr}");
    // 3: refused (UNAUTHENTICATED, PERMISSION_DENIED), for a run and for a single call.
    for code in [tonic::Code::Unauthenticated, tonic::Code::PermissionDenied] {
        let fake = Fake::start(code, "no entry");
        let url = fake.url();
        let output = run(&["judge", "hdu1043", "--server", &url], b"12345678x\n");
        let (stdout, stderr) = text(&output);
        assert_eq!(
            (output.status.code(), stdout.as_str()),
            (Some(3), ""),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!(
                "the service at {url} refused the stream: {code:?}: no entry"
            )),
            "{stderr}"
        );
        let output = run(&["hint", "12345678x", "--server", &url], b"");
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains("no entry"), "{stderr}");
        let output = run(&["hint", "12345678x", "--server", &url, "--json"], b"");
        let (stdout, _) = text(&output);
        assert_eq!(output.status.code(), Some(3));
        assert!(stdout.contains("\"message\":\"no entry\""), "{stdout}");
    }
}

#[test]
fn completions_and_man_page() {
    for (shell, mark) in [
        ("bash", "complete -F _solver__client"),
        ("zsh", "#compdef solver-client"),
        ("fish", "complete -c solver-client"),
        ("elvish", "edit:completion:arg-completer[solver-client]"),
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'solver-client'",
        ),
    ] {
        let output = run(&["completions", shell], b"");
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{shell}: {stderr}");
        assert!(stdout.contains(mark), "{shell}: {stdout}");
        assert!(stdout.contains("tls-ca"), "{shell}");
    }
    let output = run(&["completions", "tcsh"], b"");
    assert_eq!(output.status.code(), Some(2));
    let output = run(&["man"], b"");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.starts_with(".ie \\n(.g .ds Aq"), "{stdout}");
    assert!(stdout.contains(".TH solver-client"), "{stdout}");
    for flag in ["timeout", "token", "gzip", "tls\\-ca", "Exit status"] {
        assert!(stdout.contains(flag), "{flag}: {stdout}");
    }
}

/// The words bash offers on TAB after `words` (the last one being completed), with the script of
/// `completions bash` sourced.
fn bash_offers(words: &[&str]) -> Vec<String> {
    let (output, script, stderr) = call(&["completions", "bash"]);
    assert!(output.status.success(), "{stderr}");
    let mut line = vec!["solver-client"];
    line.extend_from_slice(words);
    completion::bash_offers(&script, "solver-client", &line)
}

/// The values `-h` lists for the command's positional argument (`[possible values: ...]`, the
/// first such list: the arguments come before the options).
fn values(args: &[&str]) -> Vec<String> {
    let (output, help, stderr) = call(&[args, &["-h"]].concat());
    assert!(output.status.success(), "{args:?}: {stderr}");
    let (_, values) = help
        .split_once("[possible values: ")
        .unwrap_or_else(|| panic!("{args:?}: no values in {help}"));
    let values = &values[..values.find(']').expect("a closing bracket")];
    values.split(", ").map(str::to_owned).collect()
}

/// The commands `-h` lists, `help` left out.
fn subcommands(args: &[&str]) -> Vec<String> {
    let (output, help, stderr) = call(&[args, &["-h"]].concat());
    assert!(output.status.success(), "{args:?}: {stderr}");
    commands(&help)
}

/// The commands a `--help` lists, `help` left out.
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_every_command_and_value() {
    let problems = values(&["judge"]);
    assert!(problems.contains(&"hdu1043".to_owned()), "{problems:?}");
    let kinds = subcommands(&["solve"]);
    for kind in ["eight", "fifteen", "sliding", "solitaire"] {
        assert!(kinds.contains(&kind.to_owned()), "{kinds:?}");
    }
    for (words, wanted) in [
        (&["judge", ""][..], &problems),
        (
            &["--server", "http://10.0.0.1:50051", "judge", ""],
            &problems,
        ),
        (&["solve", ""], &kinds),
        (&[""], &subcommands(&[])),
        (&["databases", ""], &subcommands(&["databases"])),
        (&["completions", ""], &values(&["completions"])),
    ] {
        let offered = bash_offers(words);
        for word in wanted {
            assert!(
                offered.contains(word),
                "{words:?}: {word} not in {offered:?}"
            );
        }
    }
    let hdu: Vec<&str> = problems
        .iter()
        .map(String::as_str)
        .filter(|p| p.starts_with("hdu"))
        .collect();
    assert_eq!(bash_offers(&["judge", "hdu"]), hdu);
    assert_eq!(bash_offers(&["solve", "fi"]), ["fifteen"]);
    assert_eq!(bash_offers(&["--color", "a"]), ["auto", "always"]);
    assert_eq!(bash_offers(&["judge", "--color", "n"]), ["never"]);
    assert_eq!(
        bash_offers(&["solve", "sliding", "--no-data-d"]),
        ["--no-data-dir"]
    );
    assert_eq!(bash_offers(&["databases", "build", "--fo"]), ["--force"]);
}

#[test]
fn man_pages_for_every_command() {
    let dir = std::env::temp_dir().join(format!("solver-client-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (output, stdout, stderr) = call(&["man", "--dir", dir.to_str().expect("UTF-8 path")]);
    assert!(output.status.success(), "{stderr}");
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .expect("the directory made")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let mut listed: Vec<String> = stdout
        .lines()
        .map(|line| line.rsplit('/').next().unwrap().to_owned())
        .collect();
    listed.sort();
    assert_eq!(listed, written, "{stdout}");
    // A page for every command `--help` lists, nested ones included.
    let mut paths = vec![vec![]];
    while let Some(path) = paths.pop() {
        let name: Vec<&str> = std::iter::once("solver-client")
            .chain(path.iter().map(String::as_str))
            .collect();
        let page = format!("{}.1", name.join("-"));
        assert!(written.contains(&page), "{page} not in {written:?}");
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let (_, help, _) = call(&args);
        for command in commands(&help) {
            let mut longer = path.clone();
            longer.push(command);
            paths.push(longer);
        }
    }
    for page in ["solver-client-judge.1", "solver-client-databases-build.1"] {
        assert!(written.contains(&page.to_owned()), "{page}: {written:?}");
    }
    // Every page a page refers to (`NAME(1)` alone on a line) is written.
    for page in &written {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        for line in text.lines() {
            if let Some(name) = line.strip_suffix("(1)") {
                let target = format!("{}.1", name.replace("\\-", "-"));
                assert!(written.contains(&target), "{page} refers to {target}");
            }
        }
    }
    assert!(
        !written.iter().any(|page| page.contains("-help")),
        "{written:?}"
    );
    // Without --dir: the program's page on stdout, the same as the one written.
    let (_, printed, _) = call(&["man"]);
    let main = std::fs::read_to_string(dir.join("solver-client.1")).unwrap();
    assert_eq!(printed, main);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sections of a `-h` (`Options:`, `Connection options:`, ...) in order, each with the long
/// flags it lists.
fn sections(help: &str) -> Vec<(String, Vec<String>)> {
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in help.lines() {
        if let Some(heading) = line.strip_suffix(':').filter(|l| !l.starts_with(' ')) {
            sections.push((heading.to_owned(), Vec::new()));
        } else if let (Some((_, flags)), Some(flag)) = (
            sections.last_mut(),
            line.split_whitespace()
                .find(|word| word.starts_with("--"))
                .filter(|_| line.starts_with("  ")),
        ) {
            flags.push(flag.trim_end_matches(',').to_owned());
        }
    }
    sections
}

#[test]
fn each_command_lists_its_own_options_before_the_connection_options() {
    let connection = [
        "--server",
        "--tls-ca",
        "--tls-cert",
        "--tls-key",
        "--tls-domain",
        "--timeout",
        "--gzip",
        "--token",
    ];
    let common = ["--no-progress", "--color", "--data-dir", "--no-data-dir"];
    for (command, own) in [
        (&["judge"][..], None),
        (&["solve", "sliding"], Some("--size")),
        (&["load"], Some("--mix")),
        (&["hint"], Some("--json")),
        (&["databases", "build"], Some("--force")),
        (&["man"], Some("--dir")),
        (&[], None),
    ] {
        let (output, help, stderr) = call(&[command, &["-h"]].concat());
        assert!(output.status.success(), "{command:?}: {stderr}");
        let sections = sections(&help);
        let headings: Vec<&str> = sections.iter().map(|(name, _)| name.as_str()).collect();
        let at = |heading: &str| {
            headings
                .iter()
                .position(|h| *h == heading)
                .unwrap_or_else(|| panic!("{command:?}: no {heading} in {help}"))
        };
        let (options, connection_at, common_at) = (
            at("Options"),
            at("Connection options"),
            at("Common options"),
        );
        assert!(
            options < connection_at && connection_at < common_at,
            "{help}"
        );
        assert_eq!(sections[connection_at].1, connection, "{command:?}");
        assert_eq!(sections[common_at].1, common, "{command:?}");
        let own_options = &sections[options].1;
        assert!(own_options.contains(&"--help".to_owned()), "{help}");
        if let Some(own) = own {
            assert!(own_options.contains(&own.to_owned()), "{command:?}: {help}");
        }
        assert!(
            !own_options
                .iter()
                .any(|flag| connection.contains(&flag.as_str()) || common.contains(&flag.as_str())),
            "{command:?}: {own_options:?}"
        );
    }
}

#[test]
fn token_gzip_and_timeout_go_on_every_call() {
    let fake = Fake::start(tonic::Code::Unauthenticated, "bad token");
    let url = fake.url();
    let output = run(
        &[
            "solve",
            "eight",
            "12345678x",
            "--server",
            &url,
            "--token",
            "s3cret",
            "--gzip",
            "--timeout",
            "2s",
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(3));
    // From the environment, on a unary call.
    let mut command = client(&["hint", "12345678x", "--server", &url]);
    command.env("SOLVER_TOKEN", "from-env");
    let output = run_with(command, b"");
    assert_eq!(output.status.code(), Some(3));
    // Neither: no header.
    let output = run(&["verify", "12345678x", "l", "--server", &url], b"");
    assert_eq!(output.status.code(), Some(3));

    let calls = fake.calls();
    assert_eq!(calls.len(), 3, "{calls:?}");
    let (path, headers) = &calls[0];
    assert_eq!(path, "/solver.v2.SolverService/SolveStream");
    assert_eq!(headers["authorization"], "Bearer s3cret");
    assert_eq!(headers["grpc-encoding"], "gzip");
    assert!(
        headers["grpc-accept-encoding"]
            .to_str()
            .unwrap()
            .contains("gzip")
    );
    let timeout = headers["grpc-timeout"].to_str().unwrap();
    assert!(
        timeout.ends_with('m') || timeout.ends_with('u'),
        "{timeout}"
    );
    let (path, headers) = &calls[1];
    assert_eq!(path, "/solver.v2.SolverService/Hint");
    assert_eq!(headers["authorization"], "Bearer from-env");
    assert!(!headers.contains_key("grpc-encoding"));
    assert!(!headers.contains_key("grpc-timeout"));
    let (path, headers) = &calls[2];
    assert_eq!(path, "/solver.v2.SolverService/Verify");
    assert!(!headers.contains_key("authorization"));

    // A token that cannot be a header value is refused before anything is sent.
    let output = run(
        &["hint", "12345678x", "--server", &url, "--token", "a b"],
        b"",
    );
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains("--token: a token must be visible ASCII"),
        "{stderr}"
    );
    assert_eq!(fake.calls().len(), 3);
}

#[test]
fn gzip_against_the_real_server() {
    let server = Server::start();
    let url = server.url();
    let output = run(
        &["judge", "hdu3567", "--server", &url, "--gzip"],
        &fixture("hdu3567.in"),
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(stdout.as_bytes(), fixture("hdu3567.out"));
    let output = run(&["hint", "12345678x", "--server", &url, "--gzip"], b"");
    assert!(output.status.success());
}

#[test]
fn a_case_past_the_timeout_is_reported_and_the_others_answered() {
    // The hard board first: the easy one's answer waits for its turn, and is still printed.
    let output = run(
        &[
            "solve",
            "fifteen",
            HARD,
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
            "--timeout",
            "300ms",
            "--json",
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let late: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(late["case"], 1);
    assert!(
        late["error"].as_str().unwrap().contains("deadline"),
        "{late}"
    );
    let answered: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(
        (answered["case"].clone(), answered["moves"].clone()),
        (2.into(), "r".into())
    );
}

#[test]
fn tokens_against_a_server_that_checks_them() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("client-tokens");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tokens");
    std::fs::write(&file, "good-token\n").unwrap();
    let server = Server::start_with(move |config| config.auth.tokens_file = Some(file));
    let url = server.url();
    // No token, or a wrong one: refused, exit code 3, for a run and for a single call.
    for token in [None, Some("wrong")] {
        let mut args = vec!["solve", "eight", "1 2 3 4 5 6 7 x 8", "--server", &url];
        args.extend(token.map(|t| ["--token", t]).into_iter().flatten());
        let output = run(&args, b"");
        let (stdout, stderr) = text(&output);
        assert_eq!(
            (output.status.code(), stdout.as_str()),
            (Some(3), ""),
            "{stderr}"
        );
        assert!(stderr.contains("Unauthenticated"), "{stderr}");
        args[0] = "hint";
        args.remove(1);
        let output = run(&args, b"");
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains("UNAUTHENTICATED"), "{stderr}");
    }
    // The right one, by flag and from the environment.
    let output = run(
        &[
            "solve",
            "eight",
            "1 2 3 4 5 6 7 x 8",
            "--server",
            &url,
            "--token",
            "good-token",
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(stdout, "1 move: r\n");
    let mut command = client(&["hint", "1 2 3 4 5 6 7 x 8", "--server", &url]);
    command.env("SOLVER_TOKEN", "good-token");
    let output = run_with(command, b"");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.starts_with("distance: 1 move"), "{stdout}");
}
