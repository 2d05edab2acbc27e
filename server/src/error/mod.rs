//! One error type for the HTTP surface: every refusal answers
//! `{"detail": human text, "message": same or the spec's fixed text, "code": "snake_case"}`.

use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use crate::store;

mod conversions;

/// The text the web client refreshes on; it must stay exactly this.
pub const TOKEN_EXPIRED: &str = "Forbidden: Token expired";

/// The answer of a change that has nothing more to say: `{"status": "success"}`.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Success {
    /// Always `success`.
    status: &'static str,
}

/// The one `Success` answer.
pub const SUCCESS: Success = Success { status: "success" };

/// The body of every refusal.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for people.
    detail: String,
    /// The same text, or the spec's fixed text where it has one.
    message: String,
    /// A stable `snake_case` name of the refusal, for programs.
    code: &'static str,
    /// Who holds the conversation, with `assigned_to_other`.
    #[serde(skip_serializing_if = "Option::is_none")]
    assignee: Option<store::Person>,
    /// Which provider id another business holds, with `account_taken`.
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'static str>,
    /// More than `detail` says, where there is more: the provider's `error_data.details`, or
    /// what in a field was wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    /// Wrong credentials keep the fixed text of the spec as `message`.
    #[error("Invalid credentials")]
    InvalidCredentials,
    #[error("{TOKEN_EXPIRED}")]
    TokenExpired,
    /// The account was deleted, its password changed or it signed out everywhere since the
    /// token was issued.
    #[error("Session revoked; please sign in again")]
    TokenRevoked,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// Another canned reply of the business has this shortcut.
    #[error("{0}")]
    ShortcutTaken(String),
    /// Another business holds this provider account; the code names which id.
    #[error("This {} is already used by another business", .0.field())]
    AccountTaken(store::Account),
    /// Someone else holds the conversation; the answer names them.
    #[error("This conversation is assigned to {}", .0.name)]
    AssignedToOther(store::Person),
    /// A known path asked with a method it is not served with; `allow` lists those it is.
    #[error("{method} is not allowed here; use {allow}")]
    MethodNotAllowed { method: String, allow: String },
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UriTooLong(String),
    #[error("{0}")]
    Unsupported(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("Too many attempts; try again in {retry_after} seconds")]
    TooManyRequests { retry_after: u64 },
    #[error("{0}")]
    NotImplemented(String),
    #[error("{0}")]
    Unavailable(String),
    /// The provider refused or could not be reached, for a reason the agent cannot fix here.
    #[error("{0}")]
    BadGateway(String),
    #[error("Internal server error")]
    Internal(#[from] anyhow::Error),
    /// A refusal with more to say than its text; answered as `error` is, with `details`.
    #[error("{error}")]
    Detailed {
        error: Box<ApiError>,
        details: String,
    },
}

impl ApiError {
    fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::InvalidCredentials => "invalid_credentials",
            ApiError::TokenExpired => "token_expired",
            ApiError::TokenRevoked => "token_revoked",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict(_) => "conflict",
            ApiError::ShortcutTaken(_) => "shortcut_taken",
            ApiError::AccountTaken(store::Account::WabaId) => "waba_id_taken",
            ApiError::AccountTaken(store::Account::PhoneNumberId) => "phone_number_id_taken",
            ApiError::AssignedToOther(_) => "assigned_to_other",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::UriTooLong(_) => "uri_too_long",
            ApiError::Unsupported(_) => "unsupported_media_type",
            ApiError::Unprocessable(_) => "validation_failed",
            ApiError::TooManyRequests { .. } => "too_many_requests",
            ApiError::NotImplemented(_) => "not_implemented",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::BadGateway(_) => "provider_error",
            ApiError::Internal(_) => "internal",
            ApiError::Detailed { error, .. } => error.code(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) | ApiError::InvalidCredentials | ApiError::TokenRevoked => {
                StatusCode::UNAUTHORIZED
            }
            ApiError::TokenExpired | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_)
            | ApiError::ShortcutTaken(_)
            | ApiError::AccountTaken(_)
            | ApiError::AssignedToOther(_) => StatusCode::CONFLICT,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotImplemented(_) => StatusCode::NOT_IMPLEMENTED,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Detailed { error, .. } => error.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(err) = self {
            tracing::error!(error = ?err, "request failed");
        }
        let text = self.to_string();
        let mut response = HttpResponse::build(self.status_code());
        if let ApiError::TooManyRequests { retry_after } = self {
            response.insert_header(("Retry-After", retry_after.to_string()));
        }
        if let ApiError::MethodNotAllowed { allow, .. } = self {
            response.insert_header(("Allow", allow.as_str()));
        }
        response.json(ErrorBody {
            detail: text.clone(),
            message: text,
            code: self.code(),
            assignee: match self {
                ApiError::AssignedToOther(holder) => Some(holder.clone()),
                _ => None,
            },
            field: match self {
                ApiError::AccountTaken(account) => Some(account.field()),
                _ => None,
            },
            details: match self {
                ApiError::Detailed { details, .. } => Some(details.clone()),
                _ => None,
            },
        })
    }
}

/// 404 for a path no route serves.
pub fn no_route(method: &Method, path: &str) -> ApiError {
    ApiError::NotFound(format!("No route for {method} {path}"))
}

/// The answer where no route takes the request: an unknown path, or one of the web app's asked
/// with a method other than GET or HEAD.
pub async fn unrouted(req: HttpRequest) -> ApiResult<HttpResponse> {
    Err(no_route(req.method(), req.path()))
}

/// Result of a handler or a store call.
pub type ApiResult<T> = Result<T, ApiError>;

/// A required text field of a request: present and not blank, else 422 naming it.
pub fn required(value: &Option<String>, field: &str) -> ApiResult<String> {
    non_blank(value).ok_or_else(|| ApiError::Unprocessable(format!("{field} is required")))
}

/// An optional text field: trimmed, and `None` when absent or blank.
pub fn non_blank(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(String::from)
}
