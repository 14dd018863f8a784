package io.perflab.system;

import java.util.List;
import org.springframework.http.MediaType;

/**
 * What a request's {@code Accept} gives each format it could be answered in: the quality of the most specific range
 * that includes the format (RFC 9110, 12.5.1), so that {@code text/html;q=0, *}{@code /*} refuses HTML whatever else
 * the header accepts. Spring's own ordering weighs the quality first, and a choice between mappings takes any range
 * that names a format, whatever its quality.
 */
public final class AcceptedTypes {

    private AcceptedTypes() {
    }

    /** The quality {@code accepted} gives {@code format}: that of its {@link #mostSpecific} range, else 0. */
    public static double quality(List<MediaType> accepted, MediaType format) {
        MediaType range = mostSpecific(accepted, format);
        return range == null ? 0 : range.getQualityValue();
    }

    /** The most specific range of {@code accepted} that includes {@code format} (the first of equals), or null. */
    public static MediaType mostSpecific(List<MediaType> accepted, MediaType format) {
        MediaType chosen = null;
        for (MediaType range : accepted) {
            // by specificity alone: MediaType's own comparison weighs the quality first
            if (range.includes(format) && (chosen == null
                    || range.removeQualityValue().isMoreSpecific(chosen.removeQualityValue()))) {
                chosen = range;
            }
        }
        return chosen;
    }
}
