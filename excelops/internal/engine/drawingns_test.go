package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDeclareChartPrefix(t *testing.T) {
	lost := `<xdr:graphicFrame><a:graphic><a:graphicData uri="u"><c:chart r:id="rId1" /></a:graphicData></a:graphic></xdr:graphicFrame>`
	assert.Contains(t, declareChartPrefix(lost), `<c:chart xmlns:c="`+chartNS+`" r:id="rId1" />`)
	kept := `<c:chart xmlns:c="` + chartNS + `" r:id="rId1"/>`
	assert.Equal(t, kept, declareChartPrefix(kept))
	assert.Equal(t, "<xdr:pic/>", declareChartPrefix("<xdr:pic/>"))
}
