//! Secrets that are not configured are generated on first start and kept in the data dir, so
//! tokens survive restarts without anyone having to invent a key.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use rand::RngCore;

/// Reads `name` from the data dir, or writes `len` fresh random bytes (hex) there first.
pub fn load_or_create(data_dir: &Path, name: &str, len: usize) -> anyhow::Result<String> {
    let path = data_dir.join(name);
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim().to_string();
        if !existing.is_empty() {
            return Ok(existing);
        }
    }
    std::fs::create_dir_all(data_dir).context("Failed to create the data dir")?;
    let mut raw = vec![0u8; len];
    rand::thread_rng().fill_bytes(&mut raw);
    let value = hex::encode(raw);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(&path)
        .with_context(|| format!("Failed to write {}", path.display()))?;
    file.write_all(value.as_bytes())?;
    file.sync_all()?;
    Ok(value)
}
