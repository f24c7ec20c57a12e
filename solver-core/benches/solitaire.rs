//! Solitaire benchmark: one query at the judges' limit of 8, over a fixed mix of reachable and
//! unreachable pairs.
//!
//! `cargo bench -p solver-core --bench solitaire`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use solver_core::Stop;
use solver_core::solitaire::{self, Position, Square};

use solver_test_support::rng::Lcg;

fn position(rng: &mut Lcg) -> Position {
    let mut squares = Vec::new();
    while squares.len() < 4 {
        let i = (rng.bits() % 64) as u32;
        let sq = Square::new(i / 8 + 1, i % 8 + 1).unwrap();
        if !squares.contains(&sq) {
            squares.push(sq);
        }
    }
    Position::new(&squares).unwrap()
}

/// A position `moves` random legal moves from `p` (random steps and jumps, kept when legal).
fn walk(rng: &mut Lcg, mut p: Position, moves: usize) -> Position {
    let mut done = 0;
    while done < moves {
        let squares = p.squares();
        let from = squares[(rng.bits() % 4) as usize];
        let (dr, dc) = [(-1, 0), (1, 0), (0, -1), (0, 1)][(rng.bits() % 4) as usize];
        let jump = rng.bits().is_multiple_of(2);
        let k = if jump { 2 } else { 1 };
        let (r, c) = (from.row() as i32 + dr * k, from.col() as i32 + dc * k);
        // Off-board coordinates (negative ones wrap to huge) are rejected by `Square::new`.
        let Ok(to) = Square::new(r as u32, c as u32) else {
            continue;
        };
        let step = solitaire::Step { from, to };
        if let Ok(next) = solitaire::replay(&p, &[step]) {
            p = next;
            done += 1;
        }
    }
    p
}

fn queries(c: &mut Criterion) {
    let mut rng = Lcg::new(11);
    // Half reachable (random walks of 1..=12 moves, some beyond the limit), half random pairs
    // (almost all unreachable within 8).
    let pairs: Vec<(Position, Position)> = (0..512)
        .map(|i| {
            let start = position(&mut rng);
            let end = if i % 2 == 0 {
                walk(&mut rng, start, 1 + (i / 2) % 12)
            } else {
                position(&mut rng)
            };
            (start, end)
        })
        .collect();
    let reachable = pairs
        .iter()
        .filter(|(s, e)| solitaire::solve(s, e, 8, &Stop::never()).unwrap().is_some())
        .count();
    eprintln!(
        "solitaire mix: {reachable} of {} pairs reachable within 8",
        pairs.len()
    );
    let mut i = 0;
    c.bench_function("solitaire/one query at limit 8 (mixed pairs)", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            let (s, e) = &pairs[i];
            black_box(solitaire::solve(s, e, 8, &Stop::never()).unwrap())
        });
    });
}

criterion_group!(benches, queries);
criterion_main!(benches);
