package parse

// Rows of the downloaders that curl's and wget's rows (table_rows.go) do
// not cover. They name the file they write from the URL unless -o names
// it; policy asks which file a download wrote (curl -o x.sh; sh x.sh).

var fetchRows = []Program{
	{Name: "aria2c", Args: "*:data", Opts: "-o|--out=written -d|--dir=data -i|--input-file=data"},
	{Name: "fetch", Args: "*:data", Opts: "-o=written"},
}
