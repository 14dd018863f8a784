package archfixture.service;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.web.server.ResponseStatusException;

/** Breaks two rules on purpose: a service that throws an HTTP error and runs SQL itself. */
@Service
public class FixtureService {

    private final JdbcClient jdbc;

    public FixtureService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public long count() {
        Long count = jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
        if (count == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "nothing");
        }
        return count;
    }
}
