// Strategy: google.golang.org/protobuf v1.36.12 (generated structs, proto.Marshal / proto.Unmarshal with the
// library's defaults): the typed structs built into a new generated Catalog and marshalled; unmarshalled into a
// new one and converted to new typed structs (both on the clock). ../catalogue/catalogue.pb.go is committed
// (Go's convention; protoc-gen-go at go.mod's version, from ../../proto/regen.sh).
package main

import (
	"formats/catalogue"
	"formats/common"

	"google.golang.org/protobuf/proto"
)

func toMessage(c *common.Catalog) *catalogue.Catalog {
	m := &catalogue.Catalog{
		AreaNames:      make(map[string]string, len(c.AreaNames)),
		Events:         make(map[string]*catalogue.Event, len(c.Events)),
		Performances:   make([]*catalogue.Performance, 0, len(c.Performances)),
		TopicSubTopics: make(map[string]*catalogue.Int64List, len(c.TopicSubTopics)),
		VenueNames:     make(map[string]string, len(c.VenueNames)),
	}
	for k, v := range c.AreaNames {
		m.AreaNames[k] = v
	}
	for k, e := range c.Events {
		m.Events[k] = &catalogue.Event{
			Id: e.ID, Name: e.Name, Description: e.Description, Logo: e.Logo,
			SubTopicIds: e.SubTopicIDs, TopicIds: e.TopicIDs,
		}
	}
	for i := range c.Performances {
		p := &c.Performances[i]
		prices := make([]*catalogue.Price, len(p.Prices))
		for j, pr := range p.Prices {
			prices[j] = &catalogue.Price{Amount: pr.Amount, AudienceSubCategoryId: pr.AudienceSubCategoryID, SeatCategoryId: pr.SeatCategoryID}
		}
		cats := make([]*catalogue.SeatCategory, len(p.SeatCategories))
		for j, sc := range p.SeatCategories {
			areas := make([]*catalogue.Area, len(sc.Areas))
			for k, a := range sc.Areas {
				areas[k] = &catalogue.Area{AreaId: a.AreaID, BlockIds: a.BlockIDs}
			}
			cats[j] = &catalogue.SeatCategory{SeatCategoryId: sc.SeatCategoryID, Areas: areas}
		}
		m.Performances = append(m.Performances, &catalogue.Performance{
			Id: p.ID, EventId: p.EventID, Name: p.Name, Logo: p.Logo, Start: p.Start, VenueCode: p.VenueCode,
			Prices: prices, SeatCategories: cats,
		})
	}
	for k, ids := range c.TopicSubTopics {
		m.TopicSubTopics[k] = &catalogue.Int64List{Values: ids}
	}
	for k, v := range c.VenueNames {
		m.VenueNames[k] = v
	}
	return m
}

// nonNil: a list the message left nil (none on the wire) as an empty one, as the other decoders give.
func nonNil(v []int64) []int64 {
	if v == nil {
		return []int64{}
	}
	return v
}

func fromMessage(m *catalogue.Catalog) *common.Catalog {
	c := &common.Catalog{
		AreaNames:      m.AreaNames,
		Events:         make(map[string]common.Event, len(m.Events)),
		Performances:   make([]common.Performance, len(m.Performances)),
		TopicSubTopics: make(map[string][]int64, len(m.TopicSubTopics)),
		VenueNames:     m.VenueNames,
	}
	for k, e := range m.Events {
		c.Events[k] = common.Event{
			ID: e.GetId(), Name: e.GetName(), Description: e.Description, Logo: e.Logo,
			SubTopicIDs: nonNil(e.GetSubTopicIds()), TopicIDs: nonNil(e.GetTopicIds()),
		}
	}
	for i, p := range m.Performances {
		prices := make([]common.Price, len(p.Prices))
		for j, pr := range p.Prices {
			prices[j] = common.Price{Amount: pr.GetAmount(), AudienceSubCategoryID: pr.GetAudienceSubCategoryId(), SeatCategoryID: pr.GetSeatCategoryId()}
		}
		cats := make([]common.SeatCategory, len(p.SeatCategories))
		for j, sc := range p.SeatCategories {
			areas := make([]common.Area, len(sc.Areas))
			for k, a := range sc.Areas {
				areas[k] = common.Area{AreaID: a.GetAreaId(), BlockIDs: nonNil(a.GetBlockIds())}
			}
			cats[j] = common.SeatCategory{SeatCategoryID: sc.GetSeatCategoryId(), Areas: areas}
		}
		c.Performances[i] = common.Performance{
			ID: p.GetId(), EventID: p.GetEventId(), Name: p.Name, Logo: p.Logo, Start: p.GetStart(),
			VenueCode: p.GetVenueCode(), Prices: prices, SeatCategories: cats,
		}
	}
	for k, ids := range m.TopicSubTopics {
		c.TopicSubTopics[k] = nonNil(ids.GetValues())
	}
	if c.AreaNames == nil {
		c.AreaNames = map[string]string{}
	}
	if c.VenueNames == nil {
		c.VenueNames = map[string]string{}
	}
	return c
}

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) { return proto.Marshal(toMessage(c)) },
		func(b []byte) (*common.Catalog, error) {
			var m catalogue.Catalog
			if err := proto.Unmarshal(b, &m); err != nil {
				return nil, err
			}
			return fromMessage(&m), nil
		},
	)
}
