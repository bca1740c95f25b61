// A tiny exporter for the Prometheus fixtures: it observes three known phases of latencies into a
// native histogram and a classic one (the same values), writes the values it observed to -values
// (with the time each phase was observed, epoch seconds), and serves /metrics on -listen. Phase 1
// at start, phase 2 -gap seconds (4) after the first scrape, phase 3 -gap seconds later.
package main

import (
	"encoding/json"
	"flag"
	"math"
	"math/rand"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:9464", "address to serve /metrics on")
	valuesFile := flag.String("values", "values.json", "where to write the observed values")
	gap := flag.Float64("gap", 4, "seconds between phases")
	flag.Parse()

	native := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:                        "demo_native_duration_seconds",
		Help:                        "Request durations (native histogram).",
		NativeHistogramBucketFactor: 1.1,
	})
	classic := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "demo_classic_duration_seconds",
		Help:    "Request durations (classic buckets).",
		Buckets: prometheus.DefBuckets,
	})
	reg := prometheus.NewRegistry()
	reg.MustRegister(native, classic)

	r := rand.New(rand.NewSource(40))
	phase := func(k int) []float64 {
		out := make([]float64, 300)
		for i := range out {
			v := 0.005 * math.Exp(0.8*r.NormFloat64())
			if k == 1 && i%50 == 7 {
				v = 0.3 + 0.6*r.Float64()
			}
			v = math.Round(v*1e6) / 1e6
			out[i] = v
			native.Observe(v)
			classic.Observe(v)
		}
		return out
	}
	var phases [][]float64
	var times []float64
	save := func() {
		times = append(times, float64(time.Now().UnixMilli())/1000)
		b, _ := json.Marshal(map[string]any{"unit": "s", "phases": phases, "times": times})
		_ = os.WriteFile(*valuesFile, append(b, '\n'), 0o644)
	}
	phases = append(phases, phase(0))
	save()
	// The later phases start at the first scrape, so that it sees the first phase alone.
	scraped := make(chan struct{})
	var once sync.Once
	go func() {
		<-scraped
		for k := 1; k < 3; k++ {
			time.Sleep(time.Duration(*gap * float64(time.Second)))
			phases = append(phases, phase(k))
			save()
		}
	}()
	metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	http.Handle("/metrics", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		metrics.ServeHTTP(w, req)
		once.Do(func() { close(scraped) })
	}))
	_ = http.ListenAndServe(*listen, nil)
}
