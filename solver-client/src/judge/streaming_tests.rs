//! Reading the input as a stream finds what reading it whole found (cases, their lines and their
//! errors alike), wherever the reads cut the input and however little memory the source may use;
//! and a large input is answered in order with a bounded number of cases held at once.

use std::io::{self, Read, Seek as _, SeekFrom, Write as _};
use std::sync::Arc;

use proptest::prelude::*;

use super::format::collect;
use super::printer::Notes;
use super::problem::Problem;
use super::run::{Gauge, start_reading};

/// Cases handed to the session at once in these tests.
const BATCH: usize = 16;
use super::source::{Limits, Source};
use crate::case::{Case, Input};
use crate::failure::CaseError;
use crate::family::Answer;
use crate::family::sliding::query::SlidingAnswer;
use crate::random::{Draws as _, Lcg};
use crate::sink::Sink;

/// Limits so small that bytes are evicted, spilled and read back every few tokens.
pub(crate) const TINY: Limits = Limits {
    chunk: 7,
    window: 24,
    block: 5,
};

/// A reader that gives `data` in reads ending at `cut`, and otherwise of at most `step` bytes,
/// as a pipe may.
pub(crate) struct Pieces {
    data: Vec<u8>,
    pos: usize,
    cut: usize,
    step: usize,
}

impl Pieces {
    pub(crate) fn new(data: &[u8], cut: usize, step: usize) -> Self {
        Self {
            data: data.to_vec(),
            pos: 0,
            cut,
            step: step.max(1),
        }
    }
}

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let end = if self.pos < self.cut {
            self.cut.min(self.data.len())
        } else {
            self.data.len()
        };
        let n = (end - self.pos).min(self.step).min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// What `problem` reads from `source`.
fn read(problem: Problem, source: &Source) -> Input {
    collect(|out| problem.format().read(source, out))
}

/// Each problem's inputs: its sample, and malformed ones that make the reader look ahead, cut
/// cases at lines, and report problems before and after the cases.
fn inputs(problem: Problem) -> Vec<Vec<u8>> {
    let fixture = |name: &str| {
        let path = format!("{}/tests/fixtures/{name}.in", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(path).expect("fixture")
    };
    let mut inputs = vec![fixture(problem.name())];
    let more: &[&str] = match problem {
        Problem::Poj1077 | Problem::Hdu1043 => &[
            "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 y x\n1 2 3 4 5 6 7 8 x\n1 2\n",
            "1 2 3\n4 5\n6 7 x\n1 2 3\n4 5 6\n7 x 8\n",
            "1 2 3 4 5 6 7 8 x 1 2 3 4 5 6 7 x 8 5\n12345678x\n",
            "hello world\n5 0 8 7 3 4 6 2\n1 2 3 4 5 6 7 8 9 10\n1 2 3\n1 2 3 4 5 6 7 x 8",
        ],
        Problem::Uva652 => &[
            "3\n\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n\n1 2 3\n4 5 6\n7 x 8\n\n1 2 3 4 5 6 7 8\n",
            "1\n1 2 3 4 5 6 7 8 x\nhello\n",
            "two\n1 2 3 4 5 6 7 8 x\n",
        ],
        Problem::Hdu3567 => &[
            "3\n12X453786\n12345678\n1 2\n12X453786\n12345678X\n",
            "3\n12X453786 5\n12345678X\n564178X23\n7568X4123\n12X453786\n12345678X\n",
        ],
        Problem::Uva10181 => &[
            "3\n2 3 4 0\n1 5 7\n9 6 10 12\n13 14 11 15\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n16 1 2 3\n",
            "3\n2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 20\n21 22 23 24 0\n13 1 2 4\n5 0 3 7\n9 6 10 12\n15 8 11 14\n",
            "1\n1 2 3\nzzz\n",
        ],
        Problem::Poj1198 | Problem::Hdu1401 => &[
            "4 4 4 5 5 4 6\nhello world\n4 4 4 5 5 4 6 5 1\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n",
            "4 4 4 5 5 4 6 5 2 4 3 3 3 6 4 6 9\n1 1 1 2\n",
        ],
    };
    inputs.extend(more.iter().map(|text| text.as_bytes().to_vec()));
    inputs
}

/// Every problem reads the same cases, lines and errors from a pipe as from the whole input,
/// wherever one read ends and the next begins (at every byte boundary), also when the source is
/// held to a few bytes of memory and spills the rest to a file.
#[test]
fn cases_and_errors_are_the_same_wherever_the_reads_cut_the_input() {
    for problem in Problem::ALL {
        for input in inputs(problem) {
            let whole = problem.format().parse(&input);
            assert!(!whole.cases.is_empty() || !whole.problems.is_empty());
            for cut in 0..=input.len() {
                for (step, limits) in [(usize::MAX, Limits::DEFAULT), (2, TINY)] {
                    let source =
                        Source::from_pipe(Box::new(Pieces::new(&input, cut, step)), limits);
                    assert_eq!(
                        read(problem, &source),
                        whole,
                        "{problem}, cut at {cut}, reads of {step}: {:?}",
                        String::from_utf8_lossy(&input)
                    );
                }
            }
        }
    }
}

/// From a regular file (stdin redirected from one), evicted bytes are read again from the file,
/// from where it was when reading began.
#[test]
fn a_regular_file_is_read_again_rather_than_spilled() {
    let dir = std::env::temp_dir();
    for problem in Problem::ALL {
        for (n, input) in inputs(problem).into_iter().enumerate() {
            let path = dir.join(format!(
                "solver-client-stream-{}-{problem}-{n}",
                std::process::id()
            ));
            let mut file = std::fs::File::create(&path).unwrap();
            file.write_all(b"not the input\n").unwrap();
            file.write_all(&input).unwrap();
            drop(file);
            let mut file = std::fs::File::open(&path).unwrap();
            file.seek(SeekFrom::Start(14)).unwrap();
            std::fs::remove_file(&path).unwrap();
            let source = Source::from_file(file, TINY);
            assert_eq!(read(problem, &source), problem.format().parse(&input));
            assert_eq!(source.usage().spilled, 0);
            assert_eq!(source.size_hint(), Some(input.len() as u64));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Judge-like text, cut anywhere and read in pieces of any size under tiny limits, reads as
    /// it does whole in every format.
    #[test]
    fn any_text_reads_the_same_in_pieces(
        text in "[0-9xX \n\t]{0,300}",
        cut in 0usize..301,
        step in 1usize..12,
    ) {
        for problem in Problem::ALL {
            let source = Source::from_pipe(Box::new(Pieces::new(text.as_bytes(), cut, step)), TINY);
            prop_assert_eq!(read(problem, &source), problem.format().parse(text.as_bytes()));
        }
    }
}

/// Checks a run's output as it comes: every case in input order, each answered (the client has
/// replayed every answer against its board), and hands the gauge back its cases.
struct Check {
    next: usize,
    moves: usize,
    unsolvable: usize,
    gauge: Arc<Gauge>,
}

impl Sink for Check {
    fn case(&mut self, case: &Case, answer: Result<&Answer, &CaseError>) -> io::Result<()> {
        assert_eq!(case.number, self.next);
        self.next += 1;
        match answer {
            Ok(Answer::Sliding(SlidingAnswer::Moves(_))) => self.moves += 1,
            Ok(Answer::Sliding(SlidingAnswer::Unsolvable)) => self.unsolvable += 1,
            other => panic!("case {}: {other:?}", case.number),
        }
        self.gauge.done();
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `boards` random 3×3 boards (HDU 1043), `per_line` to a line, read from a pipe with
/// `limits`, through a session of `window` cases behind a channel of `channel`, against an
/// in-process server; checks every answer and that the cases held at once stay within the
/// window and the channel. Returns what the source used.
fn run_boards(
    boards: usize,
    per_line: usize,
    limits: Limits,
    window: usize,
    channel: usize,
) -> super::source::Usage {
    let mut rng = Lcg::new(0x5eed);
    let mut text = String::new();
    for i in 0..boards {
        let cells: Vec<String> = rng
            .shuffled(9)
            .into_iter()
            .map(|c| {
                if c == 0 {
                    "x".to_owned()
                } else {
                    c.to_string()
                }
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push(if (i + 1) % per_line == 0 { '\n' } else { ' ' });
    }
    let source = Source::from_pipe(Box::new(io::Cursor::new(text.into_bytes())), limits);
    let gauge = Arc::new(Gauge::default());
    let reader = start_reading(
        Problem::Hdu1043,
        source,
        (channel, BATCH),
        Arc::new(Notes::default()),
        Some(Arc::clone(&gauge)),
    )
    .unwrap();
    let mut check = Check {
        next: 1,
        moves: 0,
        unsolvable: 0,
        gauge: Arc::clone(&gauge),
    };
    let server = crate::server::Server::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime.block_on(async {
        let address = crate::endpoints::Address {
            url: server.url(),
            host: "127.0.0.1".to_owned(),
        };
        let link = Arc::new(crate::link::Link::default());
        let endpoints = crate::endpoints::connect(&[address], &link).await.unwrap();
        crate::session::run_stream(&endpoints, reader.cases, &mut check, None, window)
            .await
            .unwrap()
    });
    let usage = reader.thread.join().unwrap().unwrap();
    assert_eq!(check.next, boards + 1);
    // Half the permutations of the tiles are reachable from the goal.
    assert!(check.moves > boards / 3 && check.unsolvable > boards / 3);
    assert!(outcome.unreachable.is_none());
    assert!(outcome.most_held <= window, "{}", outcome.most_held);
    // In the session's window, in the channel, in the batch being read, and in the one the
    // session is taking cases from.
    assert!(
        gauge.most() <= window + channel + 2 * BATCH,
        "{} cases held at once",
        gauge.most()
    );
    usage
}

/// 200,000 boards, one to a line: answered in order with at most a few hundred cases held at
/// once, and the input never all in memory (nor spilled: nothing looks far ahead).
#[test]
fn a_large_input_is_answered_with_few_cases_held() {
    let limits = Limits {
        chunk: 4096,
        window: 64 * 1024,
        block: 4096,
    };
    // 3.6 MB of input.
    let usage = run_boards(200_000, 1, limits, 256, 64);
    assert!(usage.most_in_memory < 256 * 1024, "{usage:?}");
    assert_eq!(usage.spilled, 0);
}

/// Boards all on one line: which of them are cases depends on the number of tokens after them,
/// so the input is read to its end first; from a pipe it is spilled to a file, and memory stays
/// bounded all the same.
#[test]
fn one_long_line_of_boards_is_spilled_not_held() {
    let limits = Limits {
        chunk: 4096,
        window: 64 * 1024,
        block: 4096,
    };
    // 360 KB on one line.
    let usage = run_boards(20_000, 20_000, limits, 256, 64);
    assert!(usage.most_in_memory < 256 * 1024, "{usage:?}");
    assert!(usage.spilled > 200 * 1024, "{usage:?}");
}

/// A pipe whose writer is another thread: reads wait for its writes, and end when it is gone.
struct Feed {
    writes: std::sync::mpsc::Receiver<Vec<u8>>,
    left: io::Cursor<Vec<u8>>,
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.left.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            match self.writes.recv() {
                Ok(bytes) => self.left = io::Cursor::new(bytes),
                Err(_) => return Ok(0),
            }
        }
    }
}

/// Tells a waiting thread once `count` cases have been answered.
struct Signal {
    answered: usize,
    count: usize,
    tell: std::sync::mpsc::Sender<()>,
}

impl Sink for Signal {
    fn case(&mut self, _case: &Case, answer: Result<&Answer, &CaseError>) -> io::Result<()> {
        assert!(answer.is_ok(), "{answer:?}");
        self.answered += 1;
        if self.answered == self.count {
            let _ = self.tell.send(());
        }
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Cases are answered while the input is still being written: the writer waits for the answers
/// to its first 100 boards before it writes the last one and closes the pipe (read whole first,
/// the input would never end and the answers never come).
#[test]
fn answers_come_before_the_input_ends() {
    const FIRST: usize = 100;
    let (write, writes) = std::sync::mpsc::channel();
    let (tell, told) = std::sync::mpsc::channel();
    let writer = std::thread::spawn(move || {
        write.send(b"1 2 3 4 5 6 x 7 8\n".repeat(FIRST)).unwrap();
        let answered = told
            .recv_timeout(std::time::Duration::from_secs(60))
            .is_ok();
        write.send(b"1 2 3 4 5 6 7 x 8\n".to_vec()).unwrap();
        answered
    });
    let source = Source::from_pipe(
        Box::new(Feed {
            writes,
            left: io::Cursor::new(Vec::new()),
        }),
        Limits::DEFAULT,
    );
    let reader = start_reading(
        Problem::Hdu1043,
        source,
        (64, BATCH),
        Arc::new(Notes::default()),
        None,
    )
    .unwrap();
    // The last board of the first write is complete only once the line after it is read.
    let mut sink = Signal {
        answered: 0,
        count: FIRST - 1,
        tell,
    };
    let server = crate::server::Server::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let address = crate::endpoints::Address {
            url: server.url(),
            host: "127.0.0.1".to_owned(),
        };
        let link = Arc::new(crate::link::Link::default());
        let endpoints = crate::endpoints::connect(&[address], &link).await.unwrap();
        crate::session::run_stream(&endpoints, reader.cases, &mut sink, None, 256)
            .await
            .unwrap();
    });
    assert!(writer.join().unwrap(), "no answer before the input ended");
    assert_eq!(sink.answered, FIRST + 1);
}
