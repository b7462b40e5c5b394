//! What a client keeps of answers that never change (a pipeline's basis,
//! `runs::basis`): text under a key, in memory for this process and,
//! through a caller's `Store` (files in a cache directory, say), across
//! processes. Bounded: at most `MEMO_MAX` texts in memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// At most this many texts are kept in memory by one client.
const MEMO_MAX: usize = 256;

/// Where kept texts live between processes. Errors are the store's to
/// swallow: a text not kept is asked for again.
pub trait Store: Send + Sync {
    /// The text kept under `key`, if any.
    fn read(&self, key: &str) -> Option<String>;
    /// Keep `text` under `key`.
    fn write(&self, key: &str, text: &str);
}

/// Texts kept by this client, and the caller's store behind them. Cheap to
/// clone (shared).
#[derive(Clone, Default)]
pub(crate) struct Kept {
    seen: Arc<Mutex<HashMap<String, String>>>,
    store: Option<Arc<dyn Store>>,
}

/// How many texts are kept, and whether a store is behind them.
impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let entries = self.seen.lock().map(|m| m.len()).unwrap_or(0);
        f.debug_struct("Kept")
            .field("entries", &entries)
            .field("store", &self.store.is_some())
            .finish()
    }
}

impl Kept {
    /// Kept in memory and in `store`.
    pub fn with_store(store: Arc<dyn Store>) -> Kept {
        Kept {
            seen: Arc::default(),
            store: Some(store),
        }
    }

    /// The text under `key`, from memory or the store.
    pub fn get(&self, key: &str) -> Option<String> {
        if let Some(t) = self.seen.lock().ok()?.get(key) {
            return Some(t.clone());
        }
        let text = self.store.as_ref()?.read(key)?;
        self.remember(key, &text);
        Some(text)
    }

    /// Keep `text` under `key`, in memory and the store.
    pub fn put(&self, key: &str, text: &str) {
        self.remember(key, text);
        if let Some(s) = &self.store {
            s.write(key, text);
        }
    }

    fn remember(&self, key: &str, text: &str) {
        if let Ok(mut m) = self.seen.lock() {
            if m.len() >= MEMO_MAX && !m.contains_key(key) {
                m.clear();
            }
            m.insert(key.to_string(), text.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Map(Mutex<HashMap<String, String>>);
    impl Store for Map {
        fn read(&self, key: &str) -> Option<String> {
            self.0.lock().unwrap().get(key).cloned()
        }
        fn write(&self, key: &str, text: &str) {
            self.0.lock().unwrap().insert(key.into(), text.into());
        }
    }

    #[test]
    fn a_stored_text_reads_back_in_another_client_and_memory_is_bounded() {
        let store = Arc::new(Map(Mutex::default()));
        Kept::with_store(store.clone()).put("k", "v");
        assert_eq!(Kept::with_store(store).get("k").as_deref(), Some("v"));
        let k = Kept::default();
        for i in 0..=MEMO_MAX {
            k.put(&i.to_string(), "x");
        }
        assert!(k.seen.lock().unwrap().len() <= MEMO_MAX);
        assert_eq!(k.get("nothing"), None);
    }
}
