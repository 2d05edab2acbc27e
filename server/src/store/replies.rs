//! Automated replies, their flow steps, the files they send, and when each last answered each
//! customer (for the cooldown).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::FromRow;

use super::Store;
use super::error::{Error, StoreResult};

/// A quick-reply button: its id is what the customer's press sends back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct QuickReplyButton {
    pub id: String,
    pub title: String,
}

/// A stored file a reply or a step sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyMedia {
    /// The row of `media`; served at `/api/media/{id}`.
    pub id: String,
    /// `image`, `video`, `audio` or `document`.
    pub media_type: String,
}

impl ReplyMedia {
    pub fn url(&self) -> String {
        format!("/api/media/{}", self.id)
    }
}

/// An automated reply as stored.
#[derive(Clone, Debug)]
pub struct Reply {
    pub id: String,
    /// As the user typed it; matching uses it lower-cased and trimmed.
    pub trigger: String,
    /// `text` or `interactive`.
    pub kind: String,
    pub response_text: String,
    /// Sent with the media, when there is media.
    pub caption: String,
    pub is_active: bool,
    /// Answers when nothing else matches; one per business at most.
    pub is_default: bool,
    /// The same reply is not sent twice to one customer within this many hours.
    pub cooldown_hours: f64,
    /// How the trigger matches a customer's text.
    pub match_mode: MatchMode,
    pub quick_reply_buttons: Vec<QuickReplyButton>,
    pub media: Option<ReplyMedia>,
    /// The interactive list (`kind == "interactive"`), as the Cloud API takes it.
    pub interactive: Option<Value>,
    pub flow_step_count: i64,
    /// Unix milliseconds.
    pub updated_at: i64,
}

/// One step of a reply's flow, opened by the button (or list row) whose id is its trigger.
#[derive(Clone, Debug)]
pub struct FlowStep {
    pub reply_id: String,
    pub trigger: String,
    pub response_text: String,
    pub caption: String,
    pub quick_reply_buttons: Vec<QuickReplyButton>,
    pub media: Option<ReplyMedia>,
}

/// How a reply's trigger matches a customer's text, word by word after folding (as search
/// folds: any case, Arabic letter forms and diacritics, punctuation between words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MatchMode {
    /// The whole text is the trigger.
    #[default]
    Exact,
    /// The trigger's words appear together anywhere in the text.
    Contains,
    /// The text begins with the trigger's words.
    StartsWith,
}

impl MatchMode {
    /// The mode by its stored and API name.
    pub fn parse(name: &str) -> Option<MatchMode> {
        match name {
            "exact" => Some(MatchMode::Exact),
            "contains" => Some(MatchMode::Contains),
            "starts_with" => Some(MatchMode::StartsWith),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MatchMode::Exact => "exact",
            MatchMode::Contains => "contains",
            MatchMode::StartsWith => "starts_with",
        }
    }
}

/// The trigger as matching sees it.
pub fn trigger_key(trigger: &str) -> String {
    trigger.trim().to_lowercase()
}

macro_rules! reply_columns {
    () => {
        "r.id, r.trigger_text, r.kind, r.response_text, r.caption, r.is_active, r.is_default, \
         r.cooldown_hours, r.quick_reply_buttons, r.media_id, r.media_type, r.interactive, \
         r.updated_at, r.match_mode, (SELECT COUNT(*) FROM reply_flow_steps s \
         WHERE s.business_id = r.business_id AND s.reply_id = r.id) AS flow_step_count"
    };
}

macro_rules! step_columns {
    () => {
        "reply_id, trigger_text, response_text, caption, quick_reply_buttons, media_id, media_type"
    };
}

#[derive(FromRow)]
struct ReplyRow {
    id: String,
    trigger_text: String,
    kind: String,
    response_text: String,
    caption: String,
    is_active: i64,
    is_default: i64,
    cooldown_hours: f64,
    quick_reply_buttons: String,
    media_id: Option<String>,
    media_type: Option<String>,
    interactive: Option<String>,
    updated_at: i64,
    match_mode: String,
    flow_step_count: i64,
}

#[derive(FromRow)]
struct StepRow {
    reply_id: String,
    trigger_text: String,
    response_text: String,
    caption: String,
    quick_reply_buttons: String,
    media_id: Option<String>,
    media_type: Option<String>,
}

fn media_of(id: Option<String>, media_type: Option<String>) -> Option<ReplyMedia> {
    Some(ReplyMedia {
        id: id?,
        media_type: media_type.unwrap_or_else(|| "document".into()),
    })
}

fn buttons_of(json: &str) -> Vec<QuickReplyButton> {
    serde_json::from_str(json).unwrap_or_default()
}

impl From<ReplyRow> for Reply {
    fn from(row: ReplyRow) -> Reply {
        Reply {
            id: row.id,
            trigger: row.trigger_text,
            kind: row.kind,
            response_text: row.response_text,
            caption: row.caption,
            is_active: row.is_active != 0,
            is_default: row.is_default != 0,
            cooldown_hours: row.cooldown_hours,
            match_mode: MatchMode::parse(&row.match_mode).unwrap_or_default(),
            quick_reply_buttons: buttons_of(&row.quick_reply_buttons),
            media: media_of(row.media_id, row.media_type),
            interactive: row.interactive.and_then(|i| serde_json::from_str(&i).ok()),
            flow_step_count: row.flow_step_count,
            updated_at: row.updated_at,
        }
    }
}

impl From<StepRow> for FlowStep {
    fn from(row: StepRow) -> FlowStep {
        FlowStep {
            reply_id: row.reply_id,
            trigger: row.trigger_text,
            response_text: row.response_text,
            caption: row.caption,
            quick_reply_buttons: buttons_of(&row.quick_reply_buttons),
            media: media_of(row.media_id, row.media_type),
        }
    }
}

pub(super) fn not_found() -> Error {
    Error::NotFound("Automated reply not found".into())
}

impl Store {
    /// The business's replies, oldest first.
    pub async fn replies(&self, business_id: &str) -> StoreResult<Vec<Reply>> {
        let rows: Vec<ReplyRow> = sqlx::query_as(concat!(
            "SELECT ",
            reply_columns!(),
            " FROM automated_replies r WHERE r.business_id = $1 ORDER BY r.created_at, r.id"
        ))
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(Reply::from).collect())
    }

    /// One reply of the business; 404 for an unknown id or another business's.
    pub async fn reply(&self, business_id: &str, id: &str) -> StoreResult<Reply> {
        let row: Option<ReplyRow> = sqlx::query_as(concat!(
            "SELECT ",
            reply_columns!(),
            " FROM automated_replies r WHERE r.business_id = $1 AND r.id = $2"
        ))
        .bind(business_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(Reply::from).ok_or_else(not_found)
    }

    /// The flow steps of one reply, by trigger.
    pub async fn flow_steps(
        &self,
        business_id: &str,
        reply_id: &str,
    ) -> StoreResult<Vec<FlowStep>> {
        let rows: Vec<StepRow> = sqlx::query_as(concat!(
            "SELECT ",
            step_columns!(),
            " FROM reply_flow_steps WHERE business_id = $1 AND reply_id = $2 ORDER BY position"
        ))
        .bind(business_id)
        .bind(reply_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(FlowStep::from).collect())
    }

    /// Every flow step of the business: what the reply engine matches button ids against.
    pub async fn all_flow_steps(&self, business_id: &str) -> StoreResult<Vec<FlowStep>> {
        let rows: Vec<StepRow> = sqlx::query_as(concat!(
            "SELECT ",
            step_columns!(),
            " FROM reply_flow_steps WHERE business_id = $1 ORDER BY reply_id, position"
        ))
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(FlowStep::from).collect())
    }

    /// When each reply last answered `phone` (Unix ms), keyed by reply id.
    pub async fn reply_deliveries(
        &self,
        business_id: &str,
        phone: &str,
    ) -> StoreResult<HashMap<String, i64>> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT reply_id, sent_at FROM reply_deliveries WHERE business_id = $1 AND phone = $2",
        )
        .bind(business_id)
        .bind(phone)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().collect())
    }

    /// Remembers that `reply_id` answered `phone` at `sent_at`.
    pub async fn record_reply_delivery(
        &self,
        business_id: &str,
        reply_id: &str,
        phone: &str,
        sent_at: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO reply_deliveries (business_id, reply_id, phone, sent_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (business_id, reply_id, phone) DO UPDATE SET sent_at = excluded.sent_at",
        )
        .bind(business_id)
        .bind(reply_id)
        .bind(phone)
        .bind(sent_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
