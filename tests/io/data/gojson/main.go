package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

// reads lines of strconv-quoted JSON texts, prints "ok" or offset<TAB>message
func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		s, err := strconv.Unquote(sc.Text())
		if err != nil { fmt.Fprintln(w, "BADQUOTE"); continue }
		var v interface{}
		err = json.Unmarshal([]byte(s), &v)
		if se, ok := err.(*json.SyntaxError); ok {
			fmt.Fprintf(w, "%d\t%s\n", se.Offset, se.Error())
		} else if err != nil {
			fmt.Fprintf(w, "-1\t%s\n", err.Error())
		} else {
			fmt.Fprintln(w, "ok")
		}
	}
}
