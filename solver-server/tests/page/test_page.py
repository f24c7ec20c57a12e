"""The page at `/` in headless Chromium: boards set up, scrambled, hinted and solved through
gRPC-Web, the solution played until the board shown is the goal."""

import re

from conftest import ARTIFACTS

# Tiles, row by row; 0 is the blank.
EIGHT_HARDEST = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves, the 8-puzzle's diameter


def goal(rows, cols):
    cells = rows * cols
    return [(i + 1) % cells for i in range(cells)]


def shown_board(page):
    """The board as drawn: each tile's cell from where it is on the screen."""
    return page.evaluate(
        """() => {
            const board = document.getElementById("board");
            const frame = board.getBoundingClientRect();
            const style = getComputedStyle(board);
            const rows = Number(style.getPropertyValue("--rows"));
            const cols = Number(style.getPropertyValue("--cols"));
            const border = parseFloat(style.borderLeftWidth);
            const width = (frame.width - 2 * border) / cols;
            const height = (frame.height - 2 * border) / rows;
            const cells = new Array(rows * cols).fill(0);
            for (const tile of board.querySelectorAll(".tile")) {
                const box = tile.getBoundingClientRect();
                const col = Math.round((box.left - frame.left - border) / width);
                const row = Math.round((box.top - frame.top - border) / height);
                cells[row * cols + col] = Number(tile.dataset.tile);
            }
            return cells;
        }"""
    )


def data_board(page):
    return [int(tile) for tile in page.get_attribute("#board", "data-tiles").split()]


def set_shape(page, rows, cols):
    page.select_option("#rows", str(rows))
    page.select_option("#cols", str(cols))
    assert data_board(page) == goal(rows, cols)


def enter(page, tiles):
    page.fill("#tiles", " ".join(map(str, tiles)))
    page.click("#use-tiles")
    assert data_board(page) == tiles


def solve(page, fast=True):
    """Asks for the solution; returns its length once the reply is shown and playback began."""
    if fast:
        page.fill("#speed", "60")
    page.click("#solve")
    page.wait_for_function("document.getElementById('status').ariaBusy === 'false'", timeout=60_000)
    status = page.inner_text("#status")
    found = re.search(r"Solution: (\d+) moves \(optimal\)", status)
    assert found, status
    assert re.search(r"Search took [\d.]+ (µs|ms|s) on the server", status), status
    return int(found.group(1))


def wait_for_the_end(page, length):
    page.wait_for_function(
        f"document.getElementById('board').dataset.playing === 'false' && "
        f"document.getElementById('board').dataset.step === '{length}'",
        timeout=length * 1000 + 10_000,
    )
    # The last slide's transition.
    page.wait_for_timeout(400)


def test_a_3x3_board_is_solved_and_played_to_the_goal(page):
    enter(page, EIGHT_HARDEST)
    length = solve(page)
    assert length == 31
    wait_for_the_end(page, length)
    assert shown_board(page) == goal(3, 3)
    assert data_board(page) == goal(3, 3)
    assert "Move 31 of 31" in page.inner_text("#progress")

    # Step controls: back to the start, one step, the end.
    page.click("#first")
    page.wait_for_timeout(300)
    assert shown_board(page) == EIGHT_HARDEST
    page.click("#forward")
    assert page.get_attribute("#board", "data-step") == "1"
    page.click("#back")
    assert data_board(page) == EIGHT_HARDEST
    page.click("#last")
    page.wait_for_timeout(300)
    assert shown_board(page) == goal(3, 3)

    # Play then pause: it stops where it is.
    page.fill("#speed", "400")
    page.click("#play")
    page.wait_for_function("Number(document.getElementById('board').dataset.step) >= 2")
    page.click("#play")
    step = page.get_attribute("#board", "data-step")
    assert page.get_attribute("#board", "data-playing") == "false"
    page.wait_for_timeout(800)
    assert page.get_attribute("#board", "data-step") == step
    assert page.problems == []


def test_a_scrambled_4x4_board_is_hinted_solved_and_played_to_the_goal(page):
    set_shape(page, 4, 4)
    page.fill("#distance", "36")
    page.click("#scramble")
    page.wait_for_function("document.getElementById('status').textContent.includes('exactly')", timeout=60_000)
    start = data_board(page)
    assert start != goal(4, 4) and sorted(start) == list(range(16))
    assert "36 moves from the goal" in page.inner_text("#status")

    page.click("#hint")
    page.wait_for_function("document.getElementById('status').textContent.includes('moves away')", timeout=60_000)
    assert "The goal is 36 moves away" in page.inner_text("#status")
    assert page.locator("#hints li").count() >= 2

    page.fill("#speed", "200")
    length = solve(page, fast=False)
    assert length == 36
    # Mid-animation: a screenshot for the CI artifacts, tiles part-way through a slide.
    page.wait_for_function("Number(document.getElementById('board').dataset.step) >= 12")
    page.wait_for_timeout(60)
    page.screenshot(path=str(ARTIFACTS / "mid-animation-4x4.png"), full_page=True)
    page.fill("#speed", "60")
    wait_for_the_end(page, length)
    assert shown_board(page) == goal(4, 4)
    assert data_board(page) == goal(4, 4)
    page.screenshot(path=str(ARTIFACTS / "solved-4x4.png"), full_page=True)
    assert page.problems == []


def test_other_shapes_are_hinted_and_solved_too(page):
    # 2x3 and 3x5: shapes the service searches with its size-generic IDA*.
    for rows, cols, board in [(2, 3, [4, 1, 2, 0, 5, 3]), (3, 5, None)]:
        set_shape(page, rows, cols)
        if board is None:
            page.fill("#distance", "20")
            page.click("#scramble")
            board = data_board(page)
        else:
            enter(page, board)
        page.click("#hint")
        page.wait_for_function("document.getElementById('status').ariaBusy === 'false'", timeout=60_000)
        assert "moves away" in page.inner_text("#status"), page.inner_text("#status")
        length = solve(page)
        assert 0 < length <= 20
        wait_for_the_end(page, length)
        assert shown_board(page) == goal(rows, cols), (rows, cols, board)
    assert page.problems == []


def test_keyboard_moves_and_bad_input(page):
    page.focus("#board")
    page.keyboard.press("ArrowDown")  # the tile above the gap slides down
    assert data_board(page) == [1, 2, 3, 4, 5, 0, 7, 8, 6]
    page.keyboard.press("ArrowRight")  # the tile left of the gap slides right
    assert data_board(page) == [1, 2, 3, 4, 0, 5, 7, 8, 6]
    assert "slid right" in page.inner_text("#status")

    page.fill("#tiles", "1 2 3 4 5 6 7 7 0")
    page.click("#use-tiles")
    assert "appears twice" in page.inner_text("#status")

    # An unsolvable board is an answer, not an error.
    enter(page, [2, 1, 3, 4, 5, 6, 7, 8, 0])
    page.click("#solve")
    page.wait_for_function("document.getElementById('status').textContent.includes('never reach')")
    assert page.problems == []
