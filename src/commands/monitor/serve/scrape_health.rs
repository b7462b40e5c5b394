//! Which of `metrics serve`'s IDs are failing, so that a long-running
//! exporter logs an ID when it starts failing and when it recovers (with
//! how many scrapes it failed), not an `error:` line per ID per scrape.
//! Pure: the exporter feeds it each ID's outcomes (a fetch that ended, or
//! a scrape's deadline that passed first) and each scrape.

/// A change in one ID's health, by its position among the targets.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// It failed, having been answered before (or at the start).
    Fails(usize),
    /// It was answered again after failing for this many scrapes.
    Recovers(usize, u64),
}

/// Per target: `None` while answered, else the scrapes answered since it
/// started failing.
pub struct Health {
    failing: Vec<Option<u64>>,
}

impl Health {
    pub fn new(targets: usize) -> Self {
        Health {
            failing: vec![None; targets],
        }
    }

    /// One target's outcome (`true`: answered; `false`: refused, failed,
    /// or not answered by a scrape's deadline), and the change it brings.
    pub fn set(&mut self, i: usize, ok: bool) -> Option<Change> {
        let state = self.failing.get_mut(i)?;
        match (ok, *state) {
            (false, None) => {
                *state = Some(0);
                Some(Change::Fails(i))
            }
            (true, Some(n)) => {
                *state = None;
                Some(Change::Recovers(i, n))
            }
            _ => None,
        }
    }

    /// A scrape was answered (from a fetch or the cache): it counts for
    /// every failing target.
    pub fn scraped(&mut self) {
        for n in self.failing.iter_mut().flatten() {
            *n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_is_reported_when_it_fails_and_when_it_recovers() {
        let mut h = Health::new(2);
        assert_eq!(h.set(0, true), None);
        assert_eq!(h.set(1, false), Some(Change::Fails(1)));
        h.scraped();
        for _ in 0..3 {
            assert_eq!(h.set(1, false), None);
            h.scraped();
        }
        // Cached scrapes count too.
        h.scraped();
        assert_eq!(h.set(0, false), Some(Change::Fails(0)));
        assert_eq!(h.set(1, true), Some(Change::Recovers(1, 5)));
        h.scraped();
        assert_eq!(h.set(0, true), Some(Change::Recovers(0, 1)));
        assert_eq!(h.set(0, true), None);
        assert_eq!(h.set(9, true), None);
    }
}
