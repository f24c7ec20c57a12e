//! Exact output on generated inputs, against oracles written here independently of the service:
//! the tests' plain BFS for HDU 3567 and a meet-in-the-middle search for HDU 1401.

use std::collections::HashSet;
use std::fmt::Write as _;

use solver_core::{Board3, Move};

use crate::eqnice;
use crate::random::Lcg;
use crate::util::{run, smallest_shortest, text};

fn packed(board: &Board3) -> String {
    board
        .cells()
        .iter()
        .map(|&t| if t == 0 { 'X' } else { char::from(b'0' + t) })
        .collect()
}

#[test]
fn hdu3567_generated_cases_exact() {
    let mut rng = Lcg::new(7);
    let mut input = String::new();
    let mut expected = String::new();
    const CASES: usize = 25;
    writeln!(input, "{CASES}").unwrap();
    for case in 1..=CASES {
        // A start from a long random walk, and a target from another walk from it.
        let mut start = Board3::goal();
        for _ in 0..60 {
            start = start.apply(Move::ALL[rng.below(4)]).unwrap_or(start);
        }
        let mut target = start;
        for _ in 0..(case * 3) {
            target = target.apply(Move::ALL[rng.below(4)]).unwrap_or(target);
        }
        writeln!(input, "{}\n{}", packed(&start), packed(&target)).unwrap();
        let moves = smallest_shortest(&start, &target, 31).expect("the walk's target is reachable");
        writeln!(expected, "Case {case}: {}\n{moves}", moves.len()).unwrap();
    }
    let output = run(&["judge", "hdu3567"], input.as_bytes());
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    eqnice!(expected, stdout);
}

/// A Solitaire position: four sorted square indices `8 * (row - 1) + (col - 1)`.
type Pieces = [u8; 4];

fn successors(position: Pieces) -> Vec<Pieces> {
    let occupied = |square: i32| position.contains(&(square as u8));
    let mut next = Vec::new();
    for (i, &square) in position.iter().enumerate() {
        let (row, col) = (i32::from(square / 8), i32::from(square % 8));
        for (dr, dc) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let inside = |r: i32, c: i32| (0..8).contains(&r) && (0..8).contains(&c);
            let (r1, c1) = (row + dr, col + dc);
            if !inside(r1, c1) {
                continue;
            }
            let landing = if !occupied(r1 * 8 + c1) {
                Some(r1 * 8 + c1)
            } else {
                let (r2, c2) = (row + 2 * dr, col + 2 * dc);
                (inside(r2, c2) && !occupied(r2 * 8 + c2)).then_some(r2 * 8 + c2)
            };
            if let Some(to) = landing {
                let mut moved = position;
                moved[i] = to as u8;
                moved.sort_unstable();
                next.push(moved);
            }
        }
    }
    next
}

/// Every position within `depth` moves of `start`.
fn ball(start: Pieces, depth: usize) -> HashSet<Pieces> {
    let mut seen = HashSet::from([start]);
    let mut layer = vec![start];
    for _ in 0..depth {
        let mut next_layer = Vec::new();
        for position in layer {
            for next in successors(position) {
                if seen.insert(next) {
                    next_layer.push(next);
                }
            }
        }
        layer = next_layer;
    }
    seen
}

#[test]
fn hdu1401_generated_cases_exact() {
    let mut rng = Lcg::new(11);
    let mut input = String::new();
    let mut expected = String::new();
    for case in 0..60 {
        let mut start: Pieces = [0; 4];
        let mut placed = 0;
        while placed < 4 {
            let square = rng.below(64) as u8;
            if !start[..placed].contains(&square) {
                start[placed] = square;
                placed += 1;
            }
        }
        start.sort_unstable();
        // Ends at 6..=11 random moves away: reachable within 8 or not, near the boundary.
        let mut end = start;
        for _ in 0..(6 + case % 6) {
            let next = successors(end);
            end = next[rng.below(next.len())];
        }
        // Moves are reversible, so "within 8" is "the two balls of radius 4 meet".
        let reachable = !ball(start, 4).is_disjoint(&ball(end, 4));
        for position in [start, end] {
            let line: Vec<String> = position
                .iter()
                .map(|s| format!("{} {}", s / 8 + 1, s % 8 + 1))
                .collect();
            writeln!(input, "{}", line.join(" ")).unwrap();
        }
        expected.push_str(if reachable { "YES\n" } else { "NO\n" });
    }
    assert!(expected.contains("YES") && expected.contains("NO"));
    let output = run(&["judge", "hdu1401"], input.as_bytes());
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    eqnice!(expected, stdout);
}
