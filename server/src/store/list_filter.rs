//! What the conversation list filters on besides its search: status and assignee.

/// Which conversations a list page shows by assignee.
pub enum AssigneeFilter {
    All,
    Unassigned,
    /// Assigned to this user.
    User(String),
}

/// What the list filters on besides the search: a status (`None` for all) and the assignee.
pub struct ListFilter {
    pub status: Option<String>,
    pub assignee: AssigneeFilter,
}

impl ListFilter {
    /// The filter as bound parameters: status (`all`), assignee kind, assignee id.
    pub(super) fn binds(&self) -> (&str, &str, &str) {
        let status = self.status.as_deref().unwrap_or("all");
        match &self.assignee {
            AssigneeFilter::All => (status, "all", ""),
            AssigneeFilter::Unassigned => (status, "unassigned", ""),
            AssigneeFilter::User(id) => (status, "user", id),
        }
    }
}
