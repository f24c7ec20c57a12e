//! The judge's input, read from stdin as the parser asks for it, in bounded memory.
//!
//! The parser ([`super::tokens`]) reads tokens through cursors that look ahead of the case being
//! read, sometimes far: to the end of a long line, or to the end of the input for the number of
//! tokens left (which decides where a case that shares its line ends). It never goes back before
//! the start of the case it reads, so everything before that point (the *floor*) is dropped.
//! What lies between the floor and the furthest point read stays readable: the newest bytes are
//! kept in memory, up to a window; older ones are read again from stdin when it is a regular
//! file, or are written to an unnamed temporary file when it is a pipe. A line of 94 MB of boards
//! therefore costs a few megabytes of memory (and, from a pipe, 94 MB of temporary disk), and an
//! input of one board per line never leaves memory at all.
//!
//! The totals (bytes, line breaks, tokens) are counted as bytes arrive, so that the end of the
//! input and the number of tokens left are known once the input has been read to its end, without
//! reading it again.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read, Seek as _};
use std::os::fd::AsFd as _;
use std::os::unix::fs::FileExt as _;
use std::sync::atomic::{AtomicU64, Ordering};

use super::found::{Found, Place};

/// Whether `b` separates tokens: ASCII whitespace and the vertical tab (judges say "any
/// whitespace", and C's `isspace` includes it).
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// How much memory a source may use; small values in tests exercise the eviction paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Bytes asked of the reader at a time.
    pub(crate) chunk: usize,
    /// Bytes kept in memory ahead of the floor before the oldest are evicted.
    pub(crate) window: usize,
    /// Bytes read back from the file at a time when a cursor goes before the window.
    pub(crate) block: usize,
}

impl Limits {
    /// What the judge uses: about 10 MB at most, whatever the input.
    pub(crate) const DEFAULT: Limits = Limits {
        chunk: 64 * 1024,
        window: 4 << 20,
        block: 64 * 1024,
    };
}

/// The input: bytes by offset, read on demand. Cursors share it (hence the interior mutability):
/// reading at an offset may read more of stdin, evict old bytes, or read them back.
pub(crate) struct Source {
    inner: RefCell<Inner>,
}

/// A token found by [`Source::lex`].
#[derive(Debug)]
pub(crate) struct Lexed {
    /// Line breaks skipped before the token (or before the end of the input).
    pub(crate) newlines: usize,
    /// The token's bytes (empty when they were not asked for), or `None` at the end of input.
    pub(crate) token: Option<Bytes>,
    /// The offset after the token, or of the end of the input.
    pub(crate) end: u64,
}

/// What the whole input holds, once read to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Totals {
    /// Bytes.
    pub(crate) len: u64,
    /// Line breaks.
    pub(crate) newlines: usize,
    /// Tokens.
    pub(crate) tokens: usize,
    /// Whether the last byte is a line break.
    pub(crate) ends_with_newline: bool,
}

/// What the source did, for tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// Most bytes held in memory at once (the window and the read-back blocks).
    pub(crate) most_in_memory: usize,
    /// Bytes written to the temporary file.
    pub(crate) spilled: u64,
}

/// Where bytes evicted from memory can be read again.
#[derive(Debug)]
enum Backing {
    /// Nowhere: they are never evicted (input given as bytes, or a temporary file that could not
    /// be made: memory then grows rather than the output going wrong).
    Memory,
    /// The regular file stdin is: read again at `base + offset`.
    File {
        /// The file.
        file: File,
        /// Its position when reading began.
        base: u64,
    },
    /// A pipe: evicted bytes at or after the floor go to a temporary file, which holds the input
    /// from offset `from` to the start of the window.
    Spill {
        /// The file, made when first needed.
        file: Option<File>,
        /// The input offset of the file's first byte.
        from: u64,
    },
}

/// Lexed tokens remembered, by the offset lexing started from: cursors looking ahead read the
/// same few hundred bytes again and again (up to 16 cases ahead, for cases that share a line),
/// and a token found once is the same token every time.
const LEXED: usize = 512;

/// A token lexed before: see [`LEXED`].
#[derive(Debug, Clone)]
struct Remembered {
    pos: u64,
    newlines: usize,
    end: u64,
    bytes: Bytes,
}

/// Shapes of case readings remembered, by where they start: enough for the 16 cases a look-ahead
/// goes over, and more. The search for where cases start reads each position again and again;
/// a reading depends only on where it starts, and a source is read by one format.
const SHAPES: usize = 64;

/// Bytes read back from the backing.
#[derive(Debug, Default)]
struct Block {
    start: u64,
    bytes: Vec<u8>,
}

struct Inner {
    reader: Option<Box<dyn Read + Send>>,
    limits: Limits,
    /// Input bytes from `start` to everything read so far.
    mem: Vec<u8>,
    start: u64,
    /// No cursor goes before this offset any more.
    floor: u64,
    backing: Backing,
    /// Two read-back blocks, so that a cursor looking ahead and the one behind it do not evict
    /// each other's block at every token; `recent` is the one used last.
    blocks: [Block; 2],
    recent: usize,
    /// Tokens lexed lately, at `pos % LEXED` (short tokens only).
    lexed: Vec<Option<Remembered>>,
    /// Shapes of case readings, at `pos % SHAPES`: where they start, what they found, and where
    /// they end.
    shapes: Vec<Option<(u64, Found, Place)>>,
    /// Totals of the bytes read so far.
    len: u64,
    newlines: usize,
    tokens: usize,
    in_token: bool,
    last: u8,
    /// The first read error; the input is taken to end there.
    error: Option<io::Error>,
    usage: Usage,
    /// Where the floor is, for a progress bar on another thread.
    consumed: Option<std::sync::Arc<AtomicU64>>,
    /// Called before each read of the input, which may wait.
    before_reading: Option<Box<dyn FnMut() + Send>>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.inner.borrow();
        f.debug_struct("Source")
            .field("start", &inner.start)
            .field("held", &inner.mem.len())
            .field("floor", &inner.floor)
            .field("read", &inner.len)
            .field("backing", &inner.backing)
            .finish_non_exhaustive()
    }
}

impl Source {
    /// All of `bytes`, held in memory (inputs that are arguments or test strings).
    pub(crate) fn from_bytes(bytes: &[u8]) -> Self {
        let mut inner = Inner::new(None, Backing::Memory, Limits::DEFAULT);
        inner.mem = bytes.to_vec();
        inner.count(0);
        Self {
            inner: RefCell::new(inner),
        }
    }

    /// Standard input: read again from the file when it is a regular one, else spilled to a
    /// temporary file as needed.
    ///
    /// # Errors
    /// Standard input cannot be duplicated (it is closed).
    pub(crate) fn stdin() -> io::Result<Self> {
        let file = File::from(io::stdin().as_fd().try_clone_to_owned()?);
        Ok(Self::from_file(file, Limits::DEFAULT))
    }

    /// `file` (stdin, or a test's file or pipe), read from its current position.
    pub(crate) fn from_file(file: File, limits: Limits) -> Self {
        let seekable = file
            .metadata()
            .is_ok_and(|meta| meta.is_file())
            .then(|| file.try_clone().ok())
            .flatten()
            .and_then(|mut copy| Some((copy.stream_position().ok()?, copy)));
        match seekable {
            Some((base, copy)) => Self::from_reader(
                Box::new(file),
                Some(Backing::File { file: copy, base }),
                limits,
            ),
            None => Self::from_reader(Box::new(file), None, limits),
        }
    }

    /// The bytes `reader` gives, spilled to a temporary file when they do not fit in memory.
    #[cfg(test)]
    pub(crate) fn from_pipe(reader: Box<dyn Read + Send>, limits: Limits) -> Self {
        Self::from_reader(reader, None, limits)
    }

    fn from_reader(reader: Box<dyn Read + Send>, backing: Option<Backing>, limits: Limits) -> Self {
        let backing = backing.unwrap_or(Backing::Spill {
            file: None,
            from: 0,
        });
        Self {
            inner: RefCell::new(Inner::new(Some(reader), backing, limits)),
        }
    }

    /// Skips whitespace from `pos` and reads the token there (its bytes only if `keep`).
    pub(crate) fn lex(&self, pos: u64, keep: bool) -> Lexed {
        self.inner.borrow_mut().lex(pos, keep)
    }

    /// The shape of the case reading at `pos`, if remembered: what it found and where it ended.
    pub(crate) fn shape(&self, pos: u64) -> Option<(Found, Place)> {
        let inner = self.inner.borrow();
        match inner.shapes[(pos % SHAPES as u64) as usize] {
            Some((at, found, after)) if at == pos => Some((found, after)),
            _ => None,
        }
    }

    /// Remembers the shape of the case reading at `pos`.
    pub(crate) fn remember_shape(&self, pos: u64, found: Found, after: Place) {
        self.inner.borrow_mut().shapes[(pos % SHAPES as u64) as usize] = Some((pos, found, after));
    }

    /// Nothing before `pos` will be read again.
    pub(crate) fn release(&self, pos: u64) {
        let mut inner = self.inner.borrow_mut();
        if pos > inner.floor {
            inner.floor = pos;
            if let Some(consumed) = &inner.consumed {
                consumed.store(pos, Ordering::Relaxed);
            }
        }
    }

    /// The totals of the whole input, reading it to its end if it has not been.
    pub(crate) fn totals(&self) -> Totals {
        let mut inner = self.inner.borrow_mut();
        while inner.fill() {}
        Totals {
            len: inner.len,
            newlines: inner.newlines,
            tokens: inner.tokens,
            ends_with_newline: inner.len > 0 && inner.last == b'\n',
        }
    }

    /// The first error reading the input (which is then taken to end there).
    pub(crate) fn take_error(&self) -> Option<io::Error> {
        self.inner.borrow_mut().error.take()
    }

    /// What the source has used so far.
    pub(crate) fn usage(&self) -> Usage {
        self.inner.borrow().usage
    }

    /// Keeps `consumed` up to date with the offset the parser has reached.
    pub(crate) fn report_progress(&self, consumed: std::sync::Arc<AtomicU64>) {
        self.inner.borrow_mut().consumed = Some(consumed);
    }

    /// Calls `hook` before each read of the input, which may wait for input to come (the judge
    /// sends the cases it has read first).
    pub(crate) fn before_reading(&self, hook: Box<dyn FnMut() + Send>) {
        self.inner.borrow_mut().before_reading = Some(hook);
    }

    /// The size of the input if it is known before reading it (a regular file).
    pub(crate) fn size_hint(&self) -> Option<u64> {
        match &self.inner.borrow().backing {
            Backing::File { file, base } => Some(file.metadata().ok()?.len().saturating_sub(*base)),
            Backing::Memory => Some(self.inner.borrow().len),
            Backing::Spill { .. } => None,
        }
    }
}

impl Inner {
    fn new(reader: Option<Box<dyn Read + Send>>, backing: Backing, limits: Limits) -> Self {
        Self {
            reader,
            limits,
            mem: Vec::new(),
            start: 0,
            floor: 0,
            backing,
            blocks: [Block::default(), Block::default()],
            recent: 0,
            lexed: vec![None; LEXED],
            shapes: vec![None; SHAPES],
            len: 0,
            newlines: 0,
            tokens: 0,
            in_token: false,
            last: 0,
            error: None,
            usage: Usage::default(),
            consumed: None,
            before_reading: None,
        }
    }

    /// Adds the bytes of `mem` from `from` on to the totals.
    fn count(&mut self, from: usize) {
        let new = &self.mem[from..];
        for &b in new {
            if is_space(b) {
                self.newlines += usize::from(b == b'\n');
                self.in_token = false;
            } else if !self.in_token {
                self.in_token = true;
                self.tokens += 1;
            }
        }
        if let Some(&b) = new.last() {
            self.last = b;
        }
        self.len += new.len() as u64;
        self.note_memory();
    }

    fn note_memory(&mut self) {
        let held = self.mem.capacity()
            + self
                .blocks
                .iter()
                .map(|b| b.bytes.capacity())
                .sum::<usize>();
        self.usage.most_in_memory = self.usage.most_in_memory.max(held);
    }

    /// Reads more of the input into memory; `false` at its end.
    fn fill(&mut self) -> bool {
        if self.reader.is_none() {
            return false;
        }
        self.make_room();
        if let Some(hook) = &mut self.before_reading {
            hook();
        }
        let old = self.mem.len();
        self.mem.resize(old + self.limits.chunk, 0);
        let read = loop {
            let Some(reader) = self.reader.as_mut() else {
                break 0;
            };
            match reader.read(&mut self.mem[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.error.get_or_insert(e);
                    break 0;
                }
            }
        };
        self.mem.truncate(old + read);
        if read == 0 {
            self.reader = None;
            return false;
        }
        self.count(old);
        true
    }

    /// Before reading a chunk: drops the bytes before the floor once they are half of memory (so
    /// that each byte is moved at most once or twice), and evicts the oldest bytes to the backing
    /// when the window would overflow.
    fn make_room(&mut self) {
        let held = self.mem.len();
        let dead = usize::try_from(self.floor.saturating_sub(self.start))
            .unwrap_or(usize::MAX)
            .min(held);
        let mut cut = if dead > 0 && dead >= held / 2 {
            dead
        } else {
            0
        };
        if held + self.limits.chunk > self.limits.window {
            // Keep the newest half of the window: the cursor that read furthest is there.
            let evict = held.saturating_sub(self.limits.window / 2).max(cut);
            if self.back_up(evict) {
                cut = evict;
            }
        }
        if cut > 0 {
            self.mem.drain(..cut);
            self.start += cut as u64;
        }
    }

    /// Makes the first `evict` bytes of memory readable from the backing; `false` if they cannot
    /// be (they then stay in memory).
    fn back_up(&mut self, evict: usize) -> bool {
        let end = self.start + evict as u64;
        let (start, floor) = (self.start, self.floor);
        match &mut self.backing {
            Backing::Memory => floor >= end,
            Backing::File { .. } => true,
            Backing::Spill { file, from } => {
                if floor >= end {
                    // All dead: so is whatever the file holds.
                    if let Some(file) = file {
                        let _ = file.set_len(0);
                    }
                    *from = end;
                    return true;
                }
                // The file must hold the input from `from` to `end` without gaps: when all it
                // holds is dead, start it again at the floor.
                let keep_from = floor.max(start);
                if floor >= start || *from >= start {
                    if let Some(file) = file
                        && file.set_len(0).is_err()
                    {
                        return false;
                    }
                    *from = keep_from;
                }
                if file.is_none() {
                    match temporary_file() {
                        Ok(made) => *file = Some(made),
                        Err(_) => return false,
                    }
                }
                let Some(spill) = file.as_ref() else {
                    return false;
                };
                let bytes = &self.mem[(keep_from - start) as usize..evict];
                if spill.write_all_at(bytes, keep_from - *from).is_err() {
                    return false;
                }
                self.usage.spilled += bytes.len() as u64;
                true
            }
        }
    }

    /// The bytes from `pos` to the end of what is at hand there (empty at the end of input).
    fn slice(&mut self, pos: u64) -> &[u8] {
        loop {
            if pos < self.start {
                return self.read_back(pos);
            }
            if pos - self.start < self.mem.len() as u64 {
                break;
            }
            if !self.fill() {
                return &[];
            }
        }
        &self.mem[(pos - self.start) as usize..]
    }

    /// The bytes from `pos` (before the window) to the end of a read-back block.
    fn read_back(&mut self, pos: u64) -> &[u8] {
        let hit = self
            .blocks
            .iter()
            .position(|b| pos >= b.start && pos - b.start < b.bytes.len() as u64);
        let slot = match hit {
            Some(slot) => slot,
            None => {
                let slot = 1 - self.recent;
                // Start a little before `pos`: the cursor behind the one that missed is near.
                let lower = match &self.backing {
                    Backing::Spill { from, .. } => self.floor.max(*from),
                    _ => self.floor,
                };
                // Never: cursors stay at or after the floor.
                debug_assert!(pos >= lower, "read at {pos}, before the floor {lower}");
                if pos < lower {
                    self.error
                        .get_or_insert_with(|| io::Error::other("input read before the floor"));
                    return &[];
                }
                let start = pos
                    .saturating_sub(self.limits.block as u64 / 4)
                    .max(lower)
                    .min(pos);
                let len = (self.start - start).min(self.limits.block as u64) as usize;
                let mut bytes = std::mem::take(&mut self.blocks[slot].bytes);
                bytes.resize(len, 0);
                let read = match &self.backing {
                    Backing::File { file, base } => file.read_exact_at(&mut bytes, base + start),
                    Backing::Spill {
                        file: Some(file),
                        from,
                    } => file.read_exact_at(&mut bytes, start - from),
                    Backing::Spill { file: None, .. } | Backing::Memory => Err(io::Error::other(
                        "evicted input bytes have nowhere to be read from",
                    )),
                };
                if let Err(e) = read {
                    // The file changed under us: end the input here, and say so at the end.
                    self.error.get_or_insert(e);
                    bytes.clear();
                }
                self.blocks[slot] = Block { start, bytes };
                self.note_memory();
                slot
            }
        };
        self.recent = slot;
        let block = &self.blocks[slot];
        &block.bytes[(pos - block.start) as usize..]
    }

    fn lex(&mut self, from: u64, keep: bool) -> Lexed {
        let slot = (from % LEXED as u64) as usize;
        if let Some(seen) = &self.lexed[slot]
            && seen.pos == from
        {
            return Lexed {
                newlines: seen.newlines,
                token: Some(if keep {
                    seen.bytes.clone()
                } else {
                    Bytes::EMPTY
                }),
                end: seen.end,
            };
        }
        let mut pos = from;
        let mut newlines = 0;
        loop {
            let bytes = self.slice(pos);
            if bytes.is_empty() {
                return Lexed {
                    newlines,
                    token: None,
                    end: pos,
                };
            }
            let blank = bytes.iter().position(|&b| !is_space(b));
            let skipped = blank.unwrap_or(bytes.len());
            newlines += bytes[..skipped].iter().filter(|&&b| b == b'\n').count();
            pos += skipped as u64;
            if blank.is_some() {
                break;
            }
        }
        let mut token = Bytes::default();
        // Whether `token` holds the whole token: always when asked to keep it, else as long as
        // it is short (which is when it is remembered).
        let mut whole = true;
        let start = pos;
        loop {
            let bytes = self.slice(pos);
            let len = bytes
                .iter()
                .position(|&b| is_space(b))
                .unwrap_or(bytes.len());
            whole &= keep || (pos - start) as usize + len <= Bytes::SHORT;
            if whole {
                token.extend(&bytes[..len]);
            }
            pos += len as u64;
            if len < bytes.len() || bytes.is_empty() {
                break;
            }
        }
        if whole && matches!(token, Bytes::Short(..)) {
            self.lexed[slot] = Some(Remembered {
                pos: from,
                newlines,
                end: pos,
                bytes: token.clone(),
            });
        }
        if !keep {
            token = Bytes::EMPTY;
        }
        Lexed {
            newlines,
            token: Some(token),
            end: pos,
        }
    }
}

/// An unnamed temporary file: made in the temporary directory and unlinked at once, so that it
/// goes away with the process however it ends.
fn temporary_file() -> io::Result<File> {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    loop {
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("solver-client-input-{}-{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => {
                std::fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
}

/// A token's bytes: short ones (all a judge's tokens) inline, so that reading a token allocates
/// nothing; long ones on the heap, whole, since error messages quote them.
#[derive(Clone)]
pub(crate) enum Bytes {
    /// Up to [`Bytes::SHORT`] bytes.
    Short(u8, [u8; Bytes::SHORT]),
    /// Longer.
    Long(Vec<u8>),
}

impl Bytes {
    /// The longest token kept inline.
    const SHORT: usize = 22;

    /// No bytes.
    pub(crate) const EMPTY: Bytes = Bytes::Short(0, [0; Bytes::SHORT]);

    fn extend(&mut self, more: &[u8]) {
        match self {
            Bytes::Short(len, buf) => {
                let old = usize::from(*len);
                let new = old + more.len();
                if new <= Self::SHORT {
                    buf[old..new].copy_from_slice(more);
                    *len = new as u8;
                } else {
                    let mut long = Vec::with_capacity(new);
                    long.extend_from_slice(&buf[..old]);
                    long.extend_from_slice(more);
                    *self = Bytes::Long(long);
                }
            }
            Bytes::Long(long) => long.extend_from_slice(more),
        }
    }
}

impl Default for Bytes {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Short(len, buf) => &buf[..usize::from(*len)],
            Bytes::Long(long) => long,
        }
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Bytes {}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(self))
    }
}
