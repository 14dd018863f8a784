package io.perflab.experiment;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Counts the SQL statements the application's {@link DataSource} is asked for (each prepared, plain or callable
 * statement of each connection it gives), so that a test can tell how many queries a piece of work made. A test
 * imports this configuration and reads {@link #during}: only work of one thread at a time is counted truly.
 */
@TestConfiguration(proxyBeanMethods = false)
class StatementCounter {

    private static final Set<String> STATEMENTS = Set.of("prepareStatement", "createStatement", "prepareCall");

    private static final AtomicInteger MADE = new AtomicInteger();

    /** The statements {@code work} made, and its result. */
    static <T> Counted<T> during(Supplier<T> work) {
        int before = MADE.get();
        T result = work.get();
        return new Counted<>(MADE.get() - before, result);
    }

    /** What a piece of work gave, and the statements it made. */
    record Counted<T>(int statements, T result) {
    }

    @Bean
    static BeanPostProcessor countedDataSource() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof DataSource source && !(bean instanceof Counting) ? new Counting(source) : bean;
            }
        };
    }

    /** A data source whose connections count the statements made of them. */
    private static final class Counting extends DelegatingDataSource {

        Counting(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            return counted(super.getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return counted(super.getConnection(username, password));
        }

        private static Connection counted(Connection connection) {
            return (Connection) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (STATEMENTS.contains(method.getName())) {
                            MADE.incrementAndGet();
                        } else if (method.getName().equals("equals") && args != null && args.length == 1) {
                            return proxy == args[0];
                        } else if (method.getName().equals("hashCode") && args == null) {
                            return System.identityHashCode(proxy);
                        }
                        try {
                            return method.invoke(connection, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}
