//! How many rows a page of the chat list or of a search holds: the `limit` asked for, 1 to
//! `MAX_PAGE`; any other `limit` is refused rather than quietly changed.

use crate::error::{ApiError, ApiResult};

/// Most rows one page may hold.
pub const MAX_PAGE: i64 = 100;

/// The page size `limit` asks for (`default` without it), or a 422 naming the bounds.
pub fn page_size(limit: Option<i64>, default: i64) -> ApiResult<i64> {
    let size = limit.unwrap_or(default);
    if !(1..=MAX_PAGE).contains(&size) {
        return Err(ApiError::Unprocessable(format!(
            "limit must be between 1 and {MAX_PAGE}"
        )));
    }
    Ok(size)
}
