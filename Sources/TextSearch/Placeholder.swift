// TextSearch
