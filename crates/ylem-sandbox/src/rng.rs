//! The sandbox's only source of randomness: a seeded splitmix64 generator and
//! the derived values (UUIDs, opaque strings, keys) built from it.

use uuid::Uuid;

/// Streams keep unrelated draws apart, so that (say) fault injection consuming
/// numbers never shifts the seeded catalogue or history.
#[derive(Clone, Copy)]
pub enum Stream {
    Catalogue = 1,
    Credentials = 2,
    History = 3,
    Tokens = 4,
    Faults = 5,
    Runs = 6,
    Shuffle = 7,
    Specials = 8,
    Triggered = 9,
    /// The `extra_pipelines` (one sub-stream each), after every other entity.
    Extra = 10,
}

/// splitmix64: tiny, fast and good enough for fake data; not for secrets.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for one stream of one seed; `salt` separates sub-streams
    /// (for example one per entity).
    pub fn stream(seed: u64, stream: Stream, salt: u64) -> Self {
        let mut r = Rng(seed ^ (stream as u64).wrapping_mul(0xA076_1D64_78BD_642F));
        r.0 ^= salt.wrapping_mul(0xE703_7ED1_A0B4_28DB);
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi] (inclusive); `lo <= hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next_u64() as usize % items.len()]
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    /// A version-4 shaped UUID (version and variant bits set) from this stream.
    pub fn uuid(&mut self) -> Uuid {
        let mut b = [0u8; 16];
        self.fill(&mut b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        Uuid::from_bytes(b)
    }

    /// An opaque alphanumeric string, as the real server's tokens look.
    pub fn token(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len).map(|_| *self.pick(ALPHABET) as char).collect()
    }

    /// Fisher-Yates, so "unspecified order" is still reproducible.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.next_u64() as usize % (i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_values_and_uuid_bits() {
        let a = Rng::stream(7, Stream::Catalogue, 0).uuid();
        let b = Rng::stream(7, Stream::Catalogue, 0).uuid();
        assert_eq!(a, b);
        assert_eq!(a.get_version_num(), 4);
        assert_eq!(a.get_variant(), uuid::Variant::RFC4122);
        assert_ne!(a, Rng::stream(8, Stream::Catalogue, 0).uuid());
    }
}
