//! Builds the 3×3 trees once: `cargo run --release -p solver-core --example tables`.
//! Handy under `valgrind --tool=callgrind`, whose instruction counts do not depend on load.

fn main() {
    let t = std::time::Instant::now();
    let tables = solver_core::eight::Tables::build();
    println!("nine trees in {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let start: solver_core::Board3 = "8 6 7 2 5 4 3 x 1".parse().expect("a board");
    let moves = tables
        .solve(&start, &solver_core::Board3::goal())
        .expect("solvable");
    println!("{} moves", moves.len());
}
