//! Writes a random judge input file, for measuring the client end to end.
//!
//! ```sh
//! cargo run --release -p solver-client --example judge_input -- hdu1043 100000 > big.in
//! hyperfine 'target/release/solver-client judge hdu1043 < big.in > /dev/null'
//! ```
//!
//! `hdu1043` boards are uniformly random permutations, so about half are unsolvable; `hdu3567`
//! pairs have equal parity (HDU 3567 promises a solution); `hdu1401` positions are random.

use std::fmt::Write as _;
use std::io::Write as _;

/// The tests' seeded draws: the same seed writes the same file.
#[path = "../tests/random.rs"]
mod random;

use random::{Draws as _, Lcg};

fn inversions(cells: &[usize]) -> usize {
    let tiles: Vec<usize> = cells.iter().copied().filter(|&t| t != 0).collect();
    (0..tiles.len())
        .map(|i| tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count())
        .sum()
}

fn packed(cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&t| {
            if t == 0 {
                'X'
            } else {
                char::from(b'0' + t as u8)
            }
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: judge_input hdu1043|hdu3567|hdu1401 CASES [SEED]";
    let problem = args.next().expect(usage);
    let cases: usize = args.next().and_then(|n| n.parse().ok()).expect(usage);
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(0x5eed);
    let mut rng = Lcg::new(seed);
    let mut out = String::new();
    match problem.as_str() {
        "hdu1043" => {
            for _ in 0..cases {
                let cells = rng.shuffled(9);
                let tokens: Vec<String> = cells
                    .iter()
                    .map(|&t| {
                        if t == 0 {
                            "x".to_owned()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
                writeln!(out, "{}", tokens.join(" ")).unwrap();
            }
        }
        "hdu3567" => {
            writeln!(out, "{cases}").unwrap();
            for _ in 0..cases {
                let start = rng.shuffled(9);
                let mut target = rng.shuffled(9);
                if inversions(&start) % 2 != inversions(&target) % 2 {
                    // Swapping two tiles flips the parity.
                    let tiles: Vec<usize> = (0..9).filter(|&i| target[i] != 0).take(2).collect();
                    target.swap(tiles[0], tiles[1]);
                }
                writeln!(out, "{}\n{}", packed(&start), packed(&target)).unwrap();
            }
        }
        "hdu1401" => {
            for _ in 0..cases * 2 {
                let line: Vec<String> = rng
                    .distinct(4, 64)
                    .iter()
                    .map(|&s| format!("{} {}", s / 8 + 1, s % 8 + 1))
                    .collect();
                writeln!(out, "{}", line.join(" ")).unwrap();
            }
        }
        other => panic!("unknown problem {other:?}; {usage}"),
    }
    std::io::stdout().lock().write_all(out.as_bytes()).unwrap();
}
