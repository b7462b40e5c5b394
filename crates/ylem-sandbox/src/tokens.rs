//! The table of issued access and refresh tokens and their lifetimes.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::rng::Rng;

/// Issued tokens. A refresh token is single-use and dies with its access
/// token; a refresh also revokes the access token it was paired with. Newer
/// tokens never revoke older ones (as on the real server).
pub struct Tokens {
    rng: Rng,
    access: HashMap<String, Instant>,
    refresh: HashMap<String, (String, Instant)>,
}

impl Tokens {
    pub fn new(rng: Rng) -> Self {
        Tokens {
            rng,
            access: HashMap::new(),
            refresh: HashMap::new(),
        }
    }

    pub fn issue(&mut self, ttl: Duration) -> (String, String) {
        let expires = Instant::now() + ttl;
        let access = self.rng.token(48);
        let refresh = self.rng.token(48);
        self.access.insert(access.clone(), expires);
        self.refresh
            .insert(refresh.clone(), (access.clone(), expires));
        (access, refresh)
    }

    pub fn redeem(&mut self, refresh: &str, ttl: Duration) -> Option<(String, String)> {
        let (old_access, expires) = self.refresh.remove(refresh)?;
        self.access.remove(&old_access);
        (Instant::now() < expires).then(|| self.issue(ttl))
    }

    /// Reorders items with the tokens' seeded stream.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.rng.shuffle(items);
    }

    pub fn is_valid(&self, access: &str) -> bool {
        self.access
            .get(access)
            .is_some_and(|exp| Instant::now() < *exp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Stream;

    #[test]
    fn refresh_is_single_use_and_revokes_old_access() {
        let mut t = Tokens::new(Rng::stream(1, Stream::Tokens, 0));
        let (a, r) = t.issue(Duration::from_secs(60));
        assert!(t.is_valid(&a));
        let (a2, _) = t.redeem(&r, Duration::from_secs(60)).unwrap();
        assert!(!t.is_valid(&a) && t.is_valid(&a2));
        assert!(t.redeem(&r, Duration::from_secs(60)).is_none());
    }
}
