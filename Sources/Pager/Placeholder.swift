// Pager
